// merged_classes: two units, each with a class of the same layout derived
// from Shape (a vptr and an int). llvm-link gives isomorphic IR structs one
// type, named after the one it meets first ("struct.Circle" for Square too).
// The temporary that a call binds to a const reference is an alloca with no
// debug-info variable, so its class can only be read from that IR name:
// Prune-Class must not rest on it (vslot keeps cha's there), though vta,
// the lesson's analysis on the classes it can read, may be misled by it.
struct Shape {
  virtual int area() const { return 0; }
};
int measure(const Shape &s);
int square_area();
