// Placement new (issue 19, vta): objects constructed into raw storage, whose
// debug-info type says nothing of the class, then called through a base
// pointer. The class is read from the vtable the constructor stores into
// the storage (its vptr), the most derived one: Env's constructor stores
// Env's vtable there first, PosixEnv's overwrites it.
//
// Env::Default() is leveldb's idiom: a function-local static SingletonEnv
// whose std::aligned_storage member holds a PosixEnv built by placement new.
// Square goes into a global char buffer, Circle into a local one. MemEnv and
// Triangle are created by plain new (RTA has them at every site of their
// base); VTA gives each placement-new site the one class built there.
#include <new>
#include <type_traits>

struct Env {
  virtual ~Env() {}
  virtual int open() = 0;
  virtual int close() { return 0; }
  static Env *Default();
};
struct PosixEnv : Env {
  int open() override { return 1; }
  int close() override { return 2; }
};
struct MemEnv : Env {
  int open() override { return 3; }
};

template <typename T> class SingletonEnv {
public:
  SingletonEnv() { new (&storage_) T(); }
  Env *env() { return reinterpret_cast<Env *>(&storage_); }
private:
  typename std::aligned_storage<sizeof(T), alignof(T)>::type storage_;
};

Env *Env::Default() {
  static SingletonEnv<PosixEnv> container;
  return container.env();
}

struct Shape { virtual int area() const = 0; };
struct Square : Shape { int area() const override { return 4; } };
struct Circle : Shape { int area() const override { return 3; } };
struct Triangle : Shape { int area() const override { return 2; } };

alignas(Square) static char square_buf[sizeof(Square)];

__attribute__((noinline)) int use_env(Env *e) {
  return e->open() + e->close();   // @cha{PosixEnv::open(); MemEnv::open(); PosixEnv::close(); Env::close()} @rta{PosixEnv::open(); MemEnv::open(); PosixEnv::close(); Env::close()} @vta{PosixEnv::open(); MemEnv::open(); PosixEnv::close(); Env::close()}
}

int main(int argc, char **) {
  Env *d = Env::Default();
  int r = d->open();   // @cha{PosixEnv::open(); MemEnv::open()} @rta{PosixEnv::open(); MemEnv::open()} @vta{PosixEnv::open()} @class{Env}
  r += d->close();   // @cha{PosixEnv::close(); Env::close()} @rta{PosixEnv::close(); Env::close()} @vta{PosixEnv::close()} @class{Env}
  Env *m = new MemEnv;
  r += use_env(argc > 1 ? m : d);
  Shape *s = new (square_buf) Square;
  r += s->area();   // @cha{Square::area() const; Circle::area() const; Triangle::area() const} @rta{Square::area() const; Circle::area() const; Triangle::area() const} @vta{Square::area() const} @class{Shape}
  alignas(Circle) char local[sizeof(Circle)];
  Shape *c = new (local) Circle;
  r += c->area();   // @cha{Square::area() const; Circle::area() const; Triangle::area() const} @rta{Square::area() const; Circle::area() const; Triangle::area() const} @vta{Circle::area() const} @class{Shape}
  Shape *t = new Triangle;
  r += t->area();   // @cha{Square::area() const; Circle::area() const; Triangle::area() const} @rta{Square::area() const; Circle::area() const; Triangle::area() const} @vta{Triangle::area() const} @class{Shape}
  delete m;   // @cha{PosixEnv::~PosixEnv(); MemEnv::~MemEnv(); Env::~Env()} @rta{PosixEnv::~PosixEnv(); MemEnv::~MemEnv()} @vta{MemEnv::~MemEnv()}
  return r;
}
