// Virtual inheritance: V is a virtual base of L and R (not nearly empty, so
// not their primary base); D : L, R overrides h. A call through V* reaches
// the overriders through virtual thunks in the V-in-L and V-in-D vtables;
// R's V-in-R vtable holds V::h itself.
struct V { virtual int h() { return 1; } int v = 0; };
struct L : virtual V { int h() override { return 2; } };
struct R : virtual V { int r = 0; };
struct D : L, R { int h() override { return 3; } };
int call_v(V *v) { return v->h(); }   // @cha{V::h(); virtual thunk to L::h(); virtual thunk to D::h()} @rta{virtual thunk to D::h()} @vta{virtual thunk to D::h()} @vslot{virtual thunk to D::h()}
int call_l(L *l) { return l->h(); }   // @cha{L::h(); D::h()} @rta{D::h()} @vta{D::h()} @vslot{D::h()}
void never() { new L; }   // L is created only in code main never reaches
int main() {
  D *d = new D;
  return call_v(d) + call_l(d);
}
