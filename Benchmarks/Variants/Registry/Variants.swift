import CogBenchSystems
import CogVariantOverflow2Inline
import CogVariantPoolInline
import CogVariantPoolInterned
import CogVariantPoolTyped
import CogVariantPrefixInline

#if COG_ISOLATION_PROBE
  import CogVariantOverflow3Inline
#endif

/// The layout variants: the one list the runner measures (after `SystemBindings.all`), the
/// M6 section renders, and the layout conformance and differential tests run. A variant is
/// added with its target under `Benchmarks/Variants/`, its lines in `Package.swift` and one
/// line here (swift/0003-edge-layouts.md, "Adding a layout").
package enum Variants {
  /// In the runner's order. The first is the baseline of the M6 instruction ratios.
  package static let all: [any BenchVariant.Type] = {
    var all: [any BenchVariant.Type] = [
      PoolInlineVariant.self,
      PrefixInlineVariant.self,
      Overflow2InlineVariant.self,
      PoolInternedVariant.self,
      PoolTypedVariant.self,
    ]
    // The isolation check's throwaway variant (scripts/isolation-check.sh).
    #if COG_ISOLATION_PROBE
      all.append(Overflow3InlineVariant.self)
    #endif
    return all
  }()
}
