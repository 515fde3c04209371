/* A global split by the optimiser (issue 15.6). At -O2 LLVM's global
 * optimiser replaces `static struct sock_ops sock`, whose address never
 * escapes, by one global per field it still needs (sock.0, sock.1) and
 * records each piece's place in the debug info as DW_OP_LLVM_fragment(bit
 * offset, size) on the global's expression. A load of sock.1 is a load of
 * `sock.read`, not of the member at byte 0 of `struct sock_ops`: the
 * fragment offset shifts the field lookup, for the sites and for the
 * stores alike. The fields stored with one function each are folded into
 * direct calls. */
#include <stdio.h>

struct sock_ops {
	int (*connect)(int fd);
	int (*read)(int fd);
	int (*write)(int fd);
	int (*close)(int fd);
	int (*poll)(int fd);
};

static int tcp_connect(int fd) { return printf("connect %d\n", fd); }
static int tcp_read(int fd) { return printf("read %d\n", fd); }
static int tcp_write(int fd) { return printf("write %d\n", fd); }
static int tcp_close(int fd) { return printf("close %d\n", fd); }
static int tcp_poll(int fd) { return printf("poll %d\n", fd); }
static int udp_connect(int fd) { return printf("uconnect %d\n", fd); }
static int udp_read(int fd) { return printf("uread %d\n", fd); }

static struct sock_ops sock;

__attribute__((noinline)) static void setup(int udp)
{
	sock.connect = udp ? udp_connect : tcp_connect;
	sock.read = udp ? udp_read : tcp_read;
	sock.write = tcp_write;
	sock.close = tcp_close;
	sock.poll = tcp_poll;
}

int main(int argc, char **argv)
{
	(void)argv;
	setup(argc > 2);
	sock.connect(3); /* SITE connect */
	sock.read(3); /* SITE read */
	sock.write(3);
	sock.poll(3);
	return sock.close(3) < 0;
}

/* Each site's field holds the two functions stored there, and R± at tau 0
 * adds nothing from the other field.
 // EXPECT connect field: sock_ops.connect
 // EXPECT connect r0: tcp_connect udp_connect
 // EXPECT connect decision udp_connect: add supported Add-Store pi_bind
 // EXPECT@tau=0 connect rpm: tcp_connect udp_connect
 // EXPECT read field: sock_ops.read
 // EXPECT read r0: tcp_read udp_read
 // EXPECT read decision tcp_read: add supported Add-Store pi_bind
 // EXPECT read decision udp_read: add supported Add-Store pi_bind
 // EXPECT@tau=0 read rpm: tcp_read udp_read
 // EXPECT@tau=0 read rplus: tcp_read udp_read
 */
