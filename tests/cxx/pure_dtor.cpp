// A pure virtual method (its slot in P's vtable holds __cxa_pure_virtual,
// no target) and a virtual destructor (delete through P* calls the deleting
// destructor in the slot after f).
struct P { virtual int f() = 0; virtual ~P() {} };
struct Q : P { int f() override { return 1; } ~Q() override {} };
struct Z : P { int f() override { return 2; } };
int call_p(P *p) { return p->f(); }   // @cha{Q::f(); Z::f()} @rta{Q::f()} @vta{Q::f()} @vslot{Q::f()}
void drop(P *p) { delete p; }         // @cha{P::~P(); Q::~Q(); Z::~Z()} @rta{Q::~Q()} @vta{Q::~Q()} @vslot{Q::~Q()}
void never() { new Z; }   // Z is created only in code main never reaches
int main() {
  P *p = new Q;
  int r = call_p(p);
  drop(p);
  return r;
}
