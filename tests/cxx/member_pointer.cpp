// A call through a member-function pointer: virtual (a vtable offset) or
// not (S::h's address), chosen at run time; the slot is not known, so every
// vtable slot of a fitting type is a target, and S::h.
struct S { virtual int f() { return 1; } virtual int g() { return 2; } int h() { return 3; } };
struct T : S { int f() override { return 4; } };
int call_m(S *s, int (S::*pm)()) { return (s->*pm)(); }   // @cha{S::f(); S::g(); T::f(); S::h()} @rta{S::g(); T::f(); S::h()}
int main(int argc, char **) {
  S *s = new T;
  return call_m(s, argc > 1 ? &S::f : &S::h) + call_m(s, &S::g);
}
