// Class templates (one class per instantiation) and a virtual call in a
// constructor: while Base's constructor runs, the object's vptr is Base's
// vtable, so this->hello() there runs Base::hello() whatever is being built.
struct Shape2 { virtual int sides() { return 0; } };
template <class T> struct Poly : Shape2 { T n = 3; int sides() override { return (int)n; } };
struct Base {
  Base() { hello(); }                       // @cha{Base::hello()} @rta{Base::hello()} @vta{Base::hello()} @vslot{Base::hello()}
  virtual int hello() { return 1; }
};
struct Derived : Base { int hello() override { return 2; } };
int main(int argc, char **) {
  Shape2 *a = new Poly<int>;
  Shape2 *b = new Poly<long>;
  Base *x = new Derived;
  int r = a->sides();                       // @cha{Shape2::sides(); Poly<int>::sides(); Poly<long>::sides()} @rta{Poly<int>::sides(); Poly<long>::sides()} @vta{Poly<int>::sides()} @vslot{Poly<int>::sides()}
  if (argc > 1) r += b->sides();
  return r + x->hello();                    // @cha{Base::hello(); Derived::hello()} @rta{Derived::hello()} @vta{Derived::hello()} @vslot{Derived::hello()}
}
