; Vtable and typeinfo globals of shapes clang never emits: an integer array
; as a vtable, a group of non-arrays, an empty vtable, a typeinfo whose base
; list is cut short or names a non-typeinfo, a class that is its own base,
; two classes each the other's base (virtual, with vbase offsets far outside
; any vtable), offset-to-top values no object has.
@_ZTVN10__cxxabiv121__vmi_class_type_infoE = external global [0 x ptr]
@_ZTVN10__cxxabiv120__si_class_type_infoE = external global [0 x ptr]
@_ZTV1A = constant [3 x i32] [i32 1, i32 2, i32 3]
@_ZTV1B = constant { i64, ptr, [0 x ptr] } { i64 7, ptr null, [0 x ptr] zeroinitializer }
@_ZTV1C = constant { [4 x ptr] } { [4 x ptr] [ptr inttoptr (i64 -9223372036854775807 to ptr), ptr @_ZTI1C, ptr @f, ptr @_ZTV1C] }
@_ZTI1C = constant { ptr, ptr, i32, i32, ptr, i64, ptr } { ptr getelementptr inbounds (ptr, ptr @_ZTVN10__cxxabiv121__vmi_class_type_infoE, i64 2), ptr null, i32 0, i32 3, ptr @_ZTI1C, i64 -4097, ptr @_ZTI1D }
@_ZTI1D = constant { ptr, ptr, i32, i32, ptr, i64 } { ptr getelementptr inbounds (ptr, ptr @_ZTVN10__cxxabiv121__vmi_class_type_infoE, i64 2), ptr null, i32 0, i32 1, ptr @_ZTI1C, i64 -1099511627775 }
@_ZTV1D = constant { [3 x ptr], [3 x ptr] } { [3 x ptr] [ptr null, ptr @_ZTI1D, ptr @f], [3 x ptr] [ptr inttoptr (i64 -8 to ptr), ptr @_ZTI1D, ptr null] }
@_ZTI1E = constant { ptr, ptr, ptr } { ptr getelementptr inbounds (ptr, ptr @_ZTVN10__cxxabiv120__si_class_type_infoE, i64 2), ptr null, ptr @_ZTV1A }
@_ZTV1E = constant [1 x ptr] [ptr @_ZTI1E]

define i32 @f(ptr %this) {
  ret i32 0
}

define i32 @main(ptr %obj) {
  %vt = load ptr, ptr %obj
  %slot = getelementptr inbounds i8, ptr %vt, i64 8
  %fn = load ptr, ptr %slot
  %r = call i32 %fn(ptr %obj)
  %neg = getelementptr inbounds i8, ptr %vt, i64 -16
  %fn2 = load ptr, ptr %neg
  %r2 = call i32 %fn2(ptr %obj)
  %i = ptrtoint ptr %vt to i64
  %j = add i64 %i, 3
  %odd = inttoptr i64 %j to ptr
  %fn3 = load ptr, ptr %odd
  %r3 = call i32 %fn3(ptr %obj)
  %s = add i32 %r, %r2
  %t = add i32 %s, %r3
  ret i32 %t
}
