import CogCore

/// One (edge layout, reference layout) pair that the workbench measures as a system
/// `cog[<edges>+<references>]` and the layout tests run on. Each variant is declared in a
/// target of its own under `Benchmarks/Variants/` and listed once in `Variants.all`
/// (swift/0003-edge-layouts.md, "Adding a layout").
///
/// `SendableMetatype`: the variant is a type-level name with no state, so its metatype can be
/// a test argument.
package protocol LayoutVariant: SendableMetatype {
  associatedtype Edges: EdgeStore
  associatedtype References: ReferenceLayout
}
