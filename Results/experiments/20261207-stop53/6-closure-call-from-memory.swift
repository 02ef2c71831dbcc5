struct Body { let run: () -> Void }
@inline(never) func callAt(_ p: UnsafeMutablePointer<Body>, _ i: Int) {
  p[i].run()
}
@inline(never) func callAt2(_ p: UnsafeMutablePointer<Body>, _ i: Int) {
  (p + i).pointee.run()
}
final class Box { let body: Body; init(_ b: Body) { body = b } }
@inline(never) func callBox(_ b: Unmanaged<Box>) {
  b._withUnsafeGuaranteedRef { $0.body.run() }
}
@inline(never) func callBorrow(_ b: borrowing Body) {
  b.run()
}
@inline(never) func callBorrowAt(_ p: UnsafeMutablePointer<Body>, _ i: Int) {
  callBorrow(p[i])
}
var x = 0
let p = UnsafeMutablePointer<Body>.allocate(capacity: 4)
p.initialize(to: Body { x += 1 })
callAt(p, 0); callAt2(p, 0); callBorrowAt(p, 0)
print(x)
