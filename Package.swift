// swift-tools-version:6.0
// Podium: a Swift live-coding performance host for Linux built on Csound 6.18 and JACK.
import PackageDescription

// The release binary is linked with the toolchain's lld: relative relocations packed (RELR: the
// loader reads 40 KB instead of 2.5 MB, ASLR kept), no dynamic symbol table of the program's own
// functions (nothing looks them up), and the code that runs first in .text
// (scripts/podium-hot-code.order, made by scripts/order-hot-code), so that fewer pages of the
// static binary are touched. bench/HISTORY.md has what each costs and saves.
let releaseLink: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--no-export-dynamic",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/podium-hot-code.order",
        "-Xlinker", "--no-warn-symbol-ordering",
    ], .when(configuration: .release)),
]

let package = Package(
    name: "Podium",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "podium", targets: ["podium"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The browser surface: HTTP and WebSocket (no framing written by hand).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // C libraries: one system-library target each (module.modulemap + shim.h).
        .systemLibrary(name: "CCsound", providers: [.apt(["libcsound64-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CSamplerate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        // Headers of our own: relaxed atomics on plain memory; clocks and a helper thread's nice value.
        .systemLibrary(name: "CAtomics"),
        .systemLibrary(name: "CThreads"),
        // The fatal-signal handler: static state and async-signal-safe calls only (CrashGuard).
        .target(name: "CCrashGuard"),
        // Ableton Link (Debian ableton-link-dev: header-only C++ on asio) behind a C interface of our own.
        .target(name: "CLinkBridge",
                cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
                linkerSettings: [.linkedLibrary("pthread")]),

        // The pattern engine (Tidal's language): rational time, patterns queried by arc, the
        // mini-notation and pattern expressions. Pure: no JACK, no Csound, no threads.
        // Optimized in debug builds too: the pattern tests query millions of events (the expression
        // fuzz alone, a million statements, took over ten minutes unoptimized on 2 cores).
        .target(name: "PodiumPatterns", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))],
                linkerSettings: [.linkedLibrary("m")]),
        // Engine layer: the only code that calls csound*.
        .target(name: "PodiumEngine", dependencies: ["CCsound", "CJack", "CThreads"]),
        // Audio files through libsndfile (render output, session recording, samples decoded and
        // resampled with libsamplerate).
        .target(name: "PodiumAudioFile", dependencies: ["CSndfile", "CSamplerate"]),
        // Sample banks by name (Dirt-Samples folders, strudel.json, Hydrogen kits): indexed and
        // checked, nothing decoded.
        .target(name: "PodiumSamples", dependencies: ["PodiumAudioFile"]),
        // The real-time core: what the JACK process callback runs (POD commands, SPSC rings, the
        // callback, its clock and guards) and its halves of the hand-offs. Nothing else.
        .target(name: "PodiumRealtime", dependencies: ["PodiumEngine", "CJack", "CAtomics", "CThreads", "CLinkBridge"]),
        // Non-real-time owners: the driver, the supervisor, the handovers' NRT side, live coding,
        // bindings, the journal, the JACK server and client calls, transport and Link's app side.
        .target(name: "PodiumHost", dependencies: ["PodiumEngine", "PodiumRealtime", "CJack", "CAtomics", "CThreads", "CLinkBridge"]),
        // Control surfaces: turn performer input (scripts, the REPL, piped input, live loops) into Commands.
        .target(name: "PodiumSurfaces", dependencies: ["PodiumEngine", "PodiumRealtime", "PodiumHost", "PodiumPatterns", "PodiumSamples", "PodiumAudioFile", "CReadline", "CJack", "CThreads"]),
        // The OSC control surface (liblo parses; Podium owns the socket and the schedule).
        .target(name: "PodiumOSC", dependencies: ["PodiumEngine", "PodiumRealtime", "PodiumHost", "PodiumSurfaces", "PodiumSamples", "PodiumPatterns", "CLo",
                                                 .product(name: "Yams", package: "Yams")]),
        // The browser surface: a stage page served over HTTP, controls and feedback over WebSocket.
        .target(name: "PodiumWeb", dependencies: ["PodiumEngine", "PodiumRealtime", "PodiumHost", "PodiumSurfaces", "PodiumOSC", "PodiumSamples", "CZlib",
                                                 .product(name: "Hummingbird", package: "hummingbird"),
                                                 .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                                                 .product(name: "Logging", package: "swift-log")],
                resources: [.copy("Page")]),
        // Found on the LAN: the surfaces' DNS-SD services published through the Avahi daemon.
        .target(name: "PodiumDiscovery", dependencies: ["CAvahi"]),
        // Drivers that run the engine: offline render.
        .target(name: "PodiumDrivers", dependencies: ["PodiumEngine", "PodiumAudioFile"]),
        // Sessions: recording a performance to disk, listing, repairing and replaying it.
        .target(name: "PodiumSession", dependencies: ["PodiumEngine", "PodiumAudioFile", "PodiumRealtime", "PodiumHost", "CCrashGuard"]),
        // A performance (driver, session, surfaces) started and stopped as one object: the CLI's
        // `play`, tests and other front ends.
        .target(name: "PodiumPerformance", dependencies: ["PodiumEngine", "PodiumAudioFile", "PodiumRealtime", "PodiumHost", "PodiumSurfaces", "CCrashGuard",
                                                         "PodiumOSC", "PodiumSession", "PodiumWeb", "PodiumDiscovery", "PodiumSamples"]),
        // The command-line tool.
        .executableTarget(
            name: "podium",
            dependencies: [
                "PodiumEngine", "PodiumAudioFile", "PodiumDrivers", "PodiumRealtime", "PodiumHost", "PodiumSurfaces", "PodiumOSC", "PodiumSession", "PodiumWeb", "PodiumPerformance", "PodiumDiscovery", "PodiumPatterns", "PodiumSamples", "CThreads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLink
        ),
        // Measuring tools for tests and benchmarks: a dummy JACK server, a frame-stamped capture client,
        // a twin client that measures how fast the machine runs a fixed job.
        .target(name: "PodiumProbe", dependencies: ["CJack", "CAtomics", "CThreads", "PodiumHost"]),
        // The benchmark runner (bench/run): latency and host overhead, printed as tables.
        .executableTarget(name: "podium-bench", dependencies: ["PodiumEngine", "PodiumRealtime", "PodiumHost", "PodiumProbe", "PodiumOSC", "PodiumSurfaces", "PodiumPatterns",
                                                             "PodiumSession", "PodiumAudioFile", "PodiumWeb", "PodiumSamples"],
                          path: "bench/Sources/podium-bench"),
        // Tests only: counts the heap allocations of one thread (the audio thread).
        .target(name: "CAllocCounter", path: "Tests/CAllocCounter"),
        .testTarget(
            name: "PodiumTests",
            dependencies: ["PodiumEngine", "PodiumAudioFile", "PodiumDrivers", "PodiumRealtime", "PodiumHost", "PodiumSurfaces",
                           "PodiumOSC", "PodiumSession", "PodiumWeb", "PodiumPerformance", "PodiumDiscovery", "PodiumPatterns", "PodiumSamples", "CJack", "CCsound", "CAllocCounter", "PodiumProbe"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
