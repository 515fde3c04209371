// Names (issue 19) of heap memory that a C++ allocation wrapper hands out:
// the handler list lives in a block pool::grab returns (an untyped block,
// reached by its pointer only), so its key and its points-to name carry the
// wrapper's name, which every output must show demangled (pool::grab(...)).
// h_one and h_two are stored into the list; h_unused has their type but is
// only called directly, so it is in no set; the walk over the list reads
// both, at -O0 and -O2. Square is the one class (measure's virtual site).
#include <cstddef>
#include <cstdlib>

typedef int (*hook_fn)(int);
int h_one(int x) { return x + 1; }
int h_two(int x) { return x + 2; }
int h_unused(int x) { return x + 3; }

namespace pool {
__attribute__((noinline)) void *grab(std::size_t n) {
  void *p = std::calloc(1, n);
  if (!p) std::abort();
  return p;
}
}  // namespace pool

struct Server { void *slots; };

// One class, so the program has a virtual site of its own as the C++ checks
// expect: every graph gives Square::area().
struct Shape { virtual int area() const = 0; };
struct Square : Shape { int area() const override { return 4; } };

__attribute__((noinline)) int measure(const Shape *s) {
  return s->area();   // @cha{Square::area() const} @rta{Square::area() const} @vta{Square::area() const} @vslot{Square::area() const} @class{Shape} @cha(O2){Square::area() const} @rta(O2){Square::area() const} @vta(O2){Square::area() const} @vslot(O2){Square::area() const}
}

__attribute__((noinline)) int run(const Server *s, int x) {
  int r = 0;
  hook_fn *l = (hook_fn *)s->slots;
  for (int i = 0; l[i]; i++)
    r += l[i](x);   // @r0{h_one(int); h_two(int)} @rpm{h_one(int); h_two(int)} @r0(O2){h_one(int); h_two(int)} @rpm(O2){h_one(int); h_two(int)}
  return r;
}

int main(int argc, char **) {
  Server s;
  s.slots = pool::grab(4 * sizeof(hook_fn));
  hook_fn *l = (hook_fn *)s.slots;
  l[0] = h_one;
  if (argc > 1) l[1] = h_two;
  Square sq;
  return run(&s, argc) + h_unused(argc) + measure(&sq);
}
