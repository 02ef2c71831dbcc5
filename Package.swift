// swift-tools-version: 6.0
//
// Cog: a data-oriented reactive state runtime (Sources/, Layouts/) and the workbench that
// measures it (Benchmarks/). One root package; the library product carries no unsafe flags so
// that apps can depend on it.
//
// Compile-time defines:
// - COG_INTERNAL_CHECKS: turns on `Graph._checkInvariants()` after every flush (walks every
//   edge and flag: O(rows + edges) per turn). Off by default; set COG_INTERNAL_CHECKS=1 in the
//   environment when building. The benchmark runner refuses to measure a build that has it.
// - COG_NO_DIAGNOSTICS: compiles out the core's tests for run counts and explained turns (a
//   flag per recompute, a byte per turn, one per made, released or evicted row), so that
//   `scripts/diagnostics-off-cost.sh` can count what they cost when off. Set COG_NO_DIAGNOSTICS=1
//   in the environment when building. Measurement only: in such a build `explainsTurns` and
//   run counts record nothing, and the runner marks its result files with the define.
// - COG_HAVE_JEMALLOC (benchmark targets only): set when libjemalloc-dev is installed and
//   COG_NO_JEMALLOC is not set; the allocation counter then reads jemalloc's statistics,
//   otherwise it falls back to an in-process malloc counter.
// - COG_HAVE_CALLGRIND (benchmark targets only): set when valgrind's <valgrind/callgrind.h>
//   is installed; the runner's callgrind client requests are no-ops without it. A define
//   rather than only `__has_include`, so that installing valgrind changes the compile command
//   and the counters are rebuilt (build with --manifest-cache none, as scripts/ do).
// - COG_ISOLATION_PROBE (the variant registry only): set when COG_ISOLATION_PROBE=1 is in the
//   environment; builds the isolation check's throwaway variant `cog[overflow3+inline]`
//   (Benchmarks/Variants/Overflow3Inline) into the workbench (scripts/isolation-check.sh).
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment
let internalChecks = environment["COG_INTERNAL_CHECKS"].map { $0 != "0" && !$0.isEmpty } ?? false
let jemallocHeader = ["/usr/include/jemalloc/jemalloc.h", "/usr/local/include/jemalloc/jemalloc.h"]
  .contains { FileManager.default.fileExists(atPath: $0) }
let useJemalloc = jemallocHeader && (environment["COG_NO_JEMALLOC"] ?? "").isEmpty
let callgrindHeader = [
  "/usr/include/valgrind/callgrind.h", "/usr/local/include/valgrind/callgrind.h",
]
.contains { FileManager.default.fileExists(atPath: $0) }

var coreSettings: [SwiftSetting] = []
if internalChecks { coreSettings.append(.define("COG_INTERNAL_CHECKS")) }
let noDiagnostics = environment["COG_NO_DIAGNOSTICS"].map { $0 != "0" && !$0.isEmpty } ?? false
if noDiagnostics { coreSettings.append(.define("COG_NO_DIAGNOSTICS")) }

var counterCSettings: [CSetting] = []
var counterLinker: [LinkerSetting] = [.linkedLibrary("dl")]
if useJemalloc {
  counterCSettings.append(.define("COG_HAVE_JEMALLOC"))
  counterLinker.append(.linkedLibrary("jemalloc"))
}
if callgrindHeader { counterCSettings.append(.define("COG_HAVE_CALLGRIND")) }
let isolationProbe = environment["COG_ISOLATION_PROBE"].map { $0 != "0" && !$0.isEmpty } ?? false

// The workbench's own modules (cases, systems, variants, baselines, counters, runner) build
// without LLVM's function merging, which folds functions of identical code into one: a case's
// body became a thunk of another case's identical body, so its counts moved with what else was
// compiled beside it (kairo/diamond +0.95%: impl/perf-notes.md, "Stop 40"). The runtime and
// the layouts build as an app gets them. No product an app depends on contains these targets,
// so the unsafe flag does not reach apps. scripts/check-no-merge.sh checks the built binary
// (its module list names these targets).
let workbenchSettings: [SwiftSetting] =
  coreSettings + [
    .unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"]),
    .define("COG_NO_MERGE_FUNCTIONS"),
  ]

/// A layout variant's target (`Benchmarks/Variants/<name>`): its `BenchVariant` binding and its
/// own `LayoutSystem` (a link to `Benchmarks/Variants/Shared/LayoutSystem.swift`), so that its
/// specializations of the core are emitted in a module of their own.
@MainActor func variant(_ name: String, layout: Target.Dependency) -> Target {
  .target(
    name: "CogVariant\(name)",
    dependencies: ["CogBenchCases", "CogBenchSystems", "CogCore", "CogLayoutBinding", layout],
    path: "Benchmarks/Variants/\(name)", swiftSettings: workbenchSettings)
}
// The isolation check's throwaway variant, only when asked for.
let probeTargets = isolationProbe ? [variant("Overflow3Inline", layout: "CogInlineOverflow")] : []
let probeVariants: [Target.Dependency] = isolationProbe ? ["CogVariantOverflow3Inline"] : []

let benchSwift: [SwiftSetting] = workbenchSettings + [.swiftLanguageMode(.v5)]

// The cases' own work functions (kairo's `fib` and busy loops, compiled in CogBenchCases, not
// specialized elsewhere) start on a 64-byte boundary: where the linker happened to put
// `kairoFib` moved kairo/mol's wall time by 22% with no instruction count changed, as the
// runtime's code beside it grew (impl/perf-notes.md, "Stop 57"). Padding between functions
// is never executed, so no count moves.
let casesSwift: [SwiftSetting] = benchSwift + [.unsafeFlags(["-Xllvm", "-align-all-functions=6"])]

let package = Package(
  name: "Cog",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "Cog", targets: ["Cog"]),
    .executable(name: "cog-bench", targets: ["CogBenchRunner"]),
  ],
  targets: [
    // MARK: Runtime
    // Stack segments for deep first evaluations (see Sources/CCogStack/include/CCogStack.h).
    .target(name: "CCogStack", path: "Sources/CCogStack"),
    .target(
      name: "CogCore", dependencies: ["CCogStack"], path: "Sources/CogCore",
      swiftSettings: coreSettings),
    .target(
      name: "CogEdgePool", dependencies: ["CogCore"], path: "Layouts/EdgePool",
      swiftSettings: coreSettings),
    // The reference layouts (swift/0006-reference-layouts.md): key storage shared by the three,
    // then one target each; the app binding uses the inline one.
    .target(
      name: "CogKeySupport", dependencies: ["CogCore"], path: "Layouts/KeySupport",
      swiftSettings: coreSettings),
    .target(
      name: "CogInlineKey", dependencies: ["CogCore", "CogKeySupport"], path: "Layouts/InlineKey",
      swiftSettings: coreSettings),
    .target(
      name: "CogInternedKey", dependencies: ["CogCore", "CogKeySupport"],
      path: "Layouts/InternedKey", swiftSettings: coreSettings),
    .target(
      name: "CogTypedKey", dependencies: ["CogCore", "CogKeySupport"], path: "Layouts/TypedKey",
      swiftSettings: coreSettings),
    .target(
      name: "Cog", dependencies: ["CogCore", "CogEdgePool", "CogKeySupport", "CogTypedKey"],
      path: "Sources/Cog", swiftSettings: coreSettings),
    // The other edge layouts the workbench compares (swift/0003-edge-layouts.md).
    .target(
      name: "CogLayoutSupport", dependencies: ["CogCore"], path: "Layouts/Support",
      swiftSettings: coreSettings),
    .target(
      name: "CogPrefixArrays", dependencies: ["CogCore", "CogLayoutSupport"],
      path: "Layouts/PrefixArrays", swiftSettings: coreSettings),
    .target(
      name: "CogInlineOverflow", dependencies: ["CogCore", "CogLayoutSupport"],
      path: "Layouts/InlineOverflow", swiftSettings: coreSettings),
    // The workbench's binding of the core to any layout (layout systems and layout tests).
    .target(
      name: "CogLayoutBinding",
      dependencies: ["CogCore", "CogKeySupport", "CogInlineKey", "CogInternedKey", "CogTypedKey"],
      path: "Layouts/Binding",
      swiftSettings: coreSettings),

    // MARK: Workbench
    .target(
      name: "CogSimpleCore", path: "Benchmarks/Baselines/SimpleCore", swiftSettings: benchSwift),
    .target(
      name: "CogObjectGraph", path: "Benchmarks/Baselines/ObjectGraph", swiftSettings: benchSwift),
    .target(
      name: "CogObservationBaseline", path: "Benchmarks/Baselines/Observation",
      swiftSettings: benchSwift),
    .target(name: "CogBenchCases", path: "Benchmarks/Cases", swiftSettings: casesSwift),
    .target(
      name: "CogBenchSystems",
      dependencies: [
        "Cog", "CogCore", "CogBenchCases", "CogSimpleCore", "CogObjectGraph",
        "CogObservationBaseline", "CogEdgePool", "CogPrefixArrays", "CogInlineOverflow",
        "CogLayoutSupport", "CogLayoutBinding", "CogKeySupport", "CogInlineKey", "CogInternedKey",
        "CogTypedKey",
      ],
      path: "Benchmarks/Systems", swiftSettings: workbenchSettings),
    // The layout variants, one target each (swift/0003-edge-layouts.md, "Adding a layout"),
    // and their registry (`Variants.all`).
    variant("PoolInline", layout: "CogEdgePool"),
    variant("PrefixInline", layout: "CogPrefixArrays"),
    variant("Overflow2Inline", layout: "CogInlineOverflow"),
    variant("PoolInterned", layout: "CogEdgePool"),
    variant("PoolTyped", layout: "CogEdgePool"),
    .target(
      name: "CogVariants",
      dependencies: [
        "CogBenchSystems", "CogVariantPoolInline", "CogVariantPrefixInline",
        "CogVariantOverflow2Inline", "CogVariantPoolInterned", "CogVariantPoolTyped",
      ] + probeVariants,
      path: "Benchmarks/Variants/Registry",
      swiftSettings: workbenchSettings + (isolationProbe ? [.define("COG_ISOLATION_PROBE")] : [])),
    .target(
      name: "CCogCounters", path: "Benchmarks/Counters/CCogCounters",
      cSettings: counterCSettings, linkerSettings: counterLinker),
    .target(
      name: "CogCounters", dependencies: ["CCogCounters"], path: "Benchmarks/Counters/CogCounters",
      swiftSettings: benchSwift),
    .executableTarget(
      name: "CogBenchRunner",
      dependencies: [
        "CogBenchCases", "CogBenchSystems", "CogVariants", "CogCounters",
      ],
      path: "Benchmarks/Runner", swiftSettings: benchSwift),

    // MARK: Tests
    // Built in release by ReleaseBuildTests (misuse messages and deep chains in a shipped build).
    .executableTarget(name: "CogReleaseProbe", dependencies: ["Cog"], path: "Tests/ReleaseProbe"),
    .testTarget(
      name: "CogTests",
      dependencies: [
        "Cog", "CogSimpleCore", "CogLayoutBinding", "CogEdgePool", "CogPrefixArrays",
        "CogInlineOverflow", "CogKeySupport", "CogInlineKey", "CogInternedKey", "CogTypedKey",
        "CogVariants",
      ],
      path: "Tests/CogTests"),
    .testTarget(
      name: "CogBenchTests",
      dependencies: ["Cog", "CogBenchCases", "CogBenchSystems", "CogVariants", "CogCounters"],
      path: "Tests/CogBenchTests", swiftSettings: [.swiftLanguageMode(.v5)]),
  ] + probeTargets
)
