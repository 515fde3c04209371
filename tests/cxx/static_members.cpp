// Static data members (issue 19): a function-pointer static member, a
// static member table of function pointers, a static member object with a
// vptr, and inline static members (C++17), each called through.
//
// A::hook starts as h_double (its initialiser) and A::set_hook, a static
// member function, stores h_neg into it: {h_double, h_neg}. A::ops is a
// constant table of three; op_div of the same type is only in `spare`, a
// table outside A, so it stays out of the A::ops site. A::fallback (inline)
// starts as h_id, main stores h_sq. h_twice has the hooks' type but is only
// called directly, never address-taken: in no set.
//
// Classes: Square (A::unit, a static member object, constructed by the
// global initialiser), Circle (A::ring, an inline static member object),
// Triangle (created only in make_triangle, which nothing calls: CHA has its
// area, RTA not). A::current points to A::unit only: VTA gives Square
// alone; measure's receiver is A::unit or A::ring: both.
//
// At -O2 the same sites stay indirect (nothing is constant but A::ops, whose
// index is not), with the same exact targets (the markers (O2)).
typedef int (*hook_fn)(int);
int h_double(int x) { return 2 * x; }
int h_neg(int x) { return -x; }
int h_id(int x) { return x; }
int h_sq(int x) { return x * x; }
int h_twice(int x) { return x + x; }
int op_add(int a, int b) { return a + b; }
int op_sub(int a, int b) { return a - b; }
int op_mul(int a, int b) { return a * b; }
int op_div(int a, int b) { return b ? a / b : 0; }

struct Shape { virtual int area() const = 0; };
struct Square : Shape { int area() const override { return 4; } };
struct Circle : Shape { int area() const override { return 3; } };
struct Triangle : Shape { int area() const override { return 2; } };

struct A {
  static hook_fn hook;
  static int (*const ops[3])(int, int);
  static Square unit;
  static Shape *current;
  static inline hook_fn fallback = h_id;
  static inline Circle ring;
  __attribute__((noinline)) static void set_hook(hook_fn h) { hook = h; }
};
hook_fn A::hook = h_double;
int (*const A::ops[3])(int, int) = {op_add, op_sub, op_mul};
Square A::unit;
Shape *A::current = &A::unit;
int (*spare[1])(int, int) = {op_div};

Shape *make_triangle() { return new Triangle; }

__attribute__((noinline)) int measure(const Shape *s) {
  return s->area();   // @cha{Square::area() const; Circle::area() const; Triangle::area() const} @rta{Square::area() const; Circle::area() const} @vta{Square::area() const; Circle::area() const} @vslot{Square::area() const; Circle::area() const} @class{Shape} @cha(O2){Square::area() const; Circle::area() const; Triangle::area() const} @rta(O2){Square::area() const; Circle::area() const} @vta(O2){Square::area() const; Circle::area() const} @vslot(O2){Square::area() const; Circle::area() const}
}

int main(int argc, char **argv) {
  if (argc > 1) A::set_hook(h_neg);
  if (argc > 3) A::fallback = h_sq;
  int r = A::hook(argc) + h_twice(argc);   // @r0{h_double(int); h_neg(int)} @rpm{h_double(int); h_neg(int)} @r0(O2){h_double(int); h_neg(int)} @rpm(O2){h_double(int); h_neg(int)}
  r += A::ops[argc % 3](r, 2);   // @r0{op_add(int, int); op_sub(int, int); op_mul(int, int)} @rpm{op_add(int, int); op_sub(int, int); op_mul(int, int)} @r0(O2){op_add(int, int); op_sub(int, int); op_mul(int, int)} @rpm(O2){op_add(int, int); op_sub(int, int); op_mul(int, int)}
  r += A::fallback(r);   // @r0{h_id(int); h_sq(int)} @rpm{h_id(int); h_sq(int)} @r0(O2){h_id(int); h_sq(int)} @rpm(O2){h_id(int); h_sq(int)}
  r += A::current->area();   // @cha{Square::area() const; Circle::area() const; Triangle::area() const} @rta{Square::area() const; Circle::area() const} @vta{Square::area() const} @vslot{Square::area() const} @class{Shape} @cha(O2){Square::area() const; Circle::area() const; Triangle::area() const} @rta(O2){Square::area() const; Circle::area() const} @vta(O2){Square::area() const} @vslot(O2){Square::area() const}
  r += measure(argc > 2 ? static_cast<Shape *>(&A::ring) : &A::unit);
  return r + spare[0](1, 1) * 0 + (argv[0] != 0);   // @r0{op_div(int, int)} @rpm{op_div(int, int)} @r0(O2){op_div(int, int)} @rpm(O2){op_div(int, int)}
}
