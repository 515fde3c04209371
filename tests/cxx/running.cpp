// The lesson's running example (Lesson 20.1, seeds/003) in C++: Shape,
// Circle, Square, Cube; `log` a global; `report` and `unused` as in the
// lesson; `choose` an `if` on a value read at run time. Expected targets per
// site are the lesson's CHA (21 edges), RTA (12) and VTA (8) tables; vslot
// (cha refuted by the receiver's objects) gives VTA's here.
// @total cha=21 rta=12 vta=8 vslot=8
// vslot's warrants (check_vslot_warrants.py): each class's vtable, slot by
// slot, as the declarations below give it, and on each call's line the
// classes of the objects its receiver may point to (@objects):
// @vtable Shape{Shape::area(); Shape::draw()}
// @vtable Circle{Circle::area(); Shape::draw()}
// @vtable Square{Square::area(); Square::draw()}
// @vtable Cube{Cube::area(); Cube::draw()}
struct Shape {
  virtual int area() { return 0; }
  virtual int draw() { return this->area(); }   // s7 @cha{Shape::area(); Circle::area(); Square::area(); Cube::area()} @rta{Circle::area(); Square::area()} @vta{Circle::area()} @vslot{Circle::area()} @objects{Circle}
};
struct Circle : Shape { int area() override { return 1; } };
struct Square : Shape {
  int area() override { return 2; }
  int draw() override { return 3; }
};
struct Cube : Square {
  int area() override { return 4; }
  int draw() override { return 5; }
};
Shape *log_;
void report(int choose) {
  Shape *r, *q;
  q = new Square;
  r = log_;
  r->draw();                  // s3 @cha{Shape::draw(); Square::draw(); Cube::draw()} @rta{Shape::draw(); Square::draw()} @vta{Shape::draw()} @vslot{Shape::draw()} @objects{Circle}
  q->area();                  // s4 @cha{Shape::area(); Circle::area(); Square::area(); Cube::area()} @rta{Circle::area(); Square::area()} @vta{Circle::area(); Square::area()} @vslot{Circle::area(); Square::area()} @objects{Circle; Square}
  if (choose) q = r;
  else q->draw();             // s5 @cha{Shape::draw(); Square::draw(); Cube::draw()} @rta{Shape::draw(); Square::draw()} @vta{Shape::draw(); Square::draw()} @vslot{Shape::draw(); Square::draw()} @objects{Circle; Square}
}
void unused() {
  Shape *u = new Cube;
  u->area();                  // s6: unreachable @cha{} @rta{} @vta{} @vslot{}
}
int main(int argc, char **argv) {
  (void)argv;
  Shape *s, *t;
  s = new Circle;
  s->area();                  // s1 @cha{Shape::area(); Circle::area(); Square::area(); Cube::area()} @rta{Circle::area(); Square::area()} @vta{Circle::area()} @vslot{Circle::area()} @objects{Circle}
  log_ = s;
  t = s;
  t->draw();                  // s2 @cha{Shape::draw(); Square::draw(); Cube::draw()} @rta{Shape::draw(); Square::draw()} @vta{Shape::draw()} @vslot{Shape::draw()} @objects{Circle}
  report(argc > 1);
  return 0;
}
