// Multiple inheritance: a call through the second base reaches C's override
// through the this-adjusting thunk in C's secondary vtable (B-in-C); E
// overrides g but is never created.
struct A { virtual int f() { return 1; } int a = 0; };
struct B { virtual int g() { return 2; } int b = 0; };
struct C : A, B { int f() override { return 3; } int g() override { return 4; } };
struct E : B { int g() override { return 5; } };
int use_b(B *b) { return b->g(); }   // @cha{B::g(); non-virtual thunk to C::g(); E::g()} @rta{non-virtual thunk to C::g()} @vta{non-virtual thunk to C::g()} @vslot{non-virtual thunk to C::g()}
int use_a(A *a) { return a->f(); }   // @cha{A::f(); C::f()} @rta{C::f()} @vta{C::f()} @vslot{C::f()}
int use_c(C *c) { return c->g(); }   // @cha{C::g()} @rta{C::g()} @vta{C::g()} @vslot{C::g()}
void never() { new E; }   // E is created only in code main never reaches
int main() {
  C *c = new C;
  return use_b(c) + use_a(c) + use_c(c);
}
