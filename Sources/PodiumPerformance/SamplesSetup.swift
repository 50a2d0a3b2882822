import Foundation
import PodiumHost
import PodiumOSC
import PodiumSamples
import PodiumSurfaces

/// The performance's sample banks: indexed before the engine starts (with any bank, the engine
/// gets the sampler's instruments), then a store that loads their files on use, for patterns
/// (and every surface that names samples).
enum SamplesSetup {
    // Thread: NRT (owner)
    static func library(_ options: PerformanceOptions) -> SampleLibrary {
        // The map's banks after those given on the command line (the map is read again, with
        // its errors, when OSC starts).
        let fromMap = (options.defaultSamples || !options.samples.isEmpty) ? ((try? options.mapPath.map { try OSCMap(contentsOf: $0).samples }) ?? nil) ?? [] : []
        return SampleLibrary.load(options.samples + fromMap, defaults: options.defaultSamples)
    }

    // Thread: NRT (owner)
    static func start(_ library: SampleLibrary, driver: JackDriver, options: PerformanceOptions, patterns: PatternPlayer,
                      notice: @escaping @Sendable (String, Bool) -> Void) -> SampleStore? {
        for p in library.problems { notice("samples: \(p)", true) }
        for b in library.banks { for p in b.problems { notice("samples: \(b.name): \(p)", true) } }
        guard !library.isEmpty else {
            if !options.samples.isEmpty || options.defaultSamples {
                notice("samples: no bank to play (--samples DIR, or apt-get install hydrogen-data for the default kits)", false)
            }
            return nil
        }
        let store = SampleStore(library: library, driver: driver, budget: options.samplesMemory)
        store.onProblem = { notice($0, true) }
        store.start()
        patterns.samples = store
        let names = library.banks.reduce(0) { $0 + $1.sounds.count }
        notice("samples: \(library.banks.map(\.name).joined(separator: ", ")) (\(names) names; :samples lists them; each file loads on its first use)", false)
        if options.preloadSamples {
            if let refused = store.preload() { notice(refused, true) } else { notice("samples: loading every file of the banks (--preload)", false) }
        }
        return store
    }
}
