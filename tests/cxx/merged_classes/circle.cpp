// @total cha=3 vslot=3
#include "shape.h"
struct Circle : Shape {
  int r = 1;
  int area() const override { return 3 * r * r; }
};
int measure(const Shape &s) {
  return s.area();   // @cha{Shape::area() const; Circle::area() const; Square::area() const} @vslot{Shape::area() const; Circle::area() const; Square::area() const} @class{Shape}
}
int main() { return measure(Circle()) + square_area(); }
