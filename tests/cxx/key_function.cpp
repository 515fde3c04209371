// Classes with a key function (an out-of-line virtual method: the vtable
// is emitted with it) and a class in an anonymous namespace: clang's debug
// info gives neither an ODR identifier, so the receiver's static class and
// the objects' classes are found by the qualified name ("ns::Base",
// "(anonymous namespace)::Local"; src/ir/dinfo.c scoped_name). Local and
// ns::Other have the same layout, so the linker may give their objects one
// IR struct type: the debug info's class decides, not the IR type's name.
namespace ns {
struct Base {
  virtual int f();
  virtual ~Base() {}
};
int Base::f() { return 0; }
struct Derived : Base { int f() override; };
int Derived::f() { return 1; }
struct Other : Base { int f() override; };
int Other::f() { return 3; }
}  // namespace ns
namespace {
struct Local : ns::Base {
  int f() override { return 2; }
};
}  // namespace
int use_other() {
  ns::Other o;
  ns::Base *p = &o;
  return p->f();   // @class{ns::Base} @cha{ns::Base::f(); ns::Derived::f(); ns::Other::f(); (anonymous namespace)::Local::f()} @rta{ns::Derived::f(); ns::Other::f(); (anonymous namespace)::Local::f()} @vta{ns::Other::f()} @vslot{ns::Other::f()}
}
int main(int argc, char **argv) {
  (void)argv;
  ns::Base *b = argc > 1 ? (ns::Base *)new ns::Derived : new Local;
  ns::Derived d;
  ns::Base *c = &d;
  Local l;
  ns::Base *e = &l;
  return b->f() + c->f() + e->f() + use_other();   // @class{ns::Base} @cha{ns::Base::f(); ns::Derived::f(); ns::Other::f(); (anonymous namespace)::Local::f()} @rta{ns::Derived::f(); ns::Other::f(); (anonymous namespace)::Local::f()} @vta{ns::Derived::f(); (anonymous namespace)::Local::f()} @vslot{ns::Derived::f(); (anonymous namespace)::Local::f()}
}
