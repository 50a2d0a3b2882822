import PodiumHost
import PodiumOSC
import PodiumSurfaces

extension Performance {
    /// The SuperDirt surface (`--dirt`): TidalCycles plays the orchestra's instruments and the
    /// sample banks. Podium's clock follows Tidal's unless Link, JACK transport (follow) or a
    /// MIDI clock leads it.
    // Thread: NRT (owner)
    func startDirt(_ driver: JackDriver, loops: LiveLoops) throws {
        guard let dirtOptions = options.dirt else { return }
        let led = options.link || options.jack.transport == .follow || options.jack.midiClock == .in
        let surface: DirtSurface
        do {
            surface = try DirtSurface(driver: driver, options: dirtOptions, samples: samples, followClock: options.dirtFollowsClock && !led)
        } catch {
            throw PerformanceError("SuperDirt port \(dirtOptions.bind):\(dirtOptions.port): \(error) (is SuperDirt, or another podium --dirt, running? --dirt-port chooses another)")
        }
        let router = self.router
        surface.onNotice = { router.notice($0) }
        surface.player.onProblem = { router.notice($0, level: .error) }
        surface.player.loops = loops
        surface.start()
        dirt = surface
        let clock = surface.followsClock ? "Podium's clock follows Tidal's cps (a cycle is a bar)"
            : led ? "Podium's clock keeps its leader (Link, transport or MIDI clock), not Tidal's cps" : "Podium's clock does not follow Tidal's (--no-dirt-clock)"
        say("podium: SuperDirt (TidalCycles) on \(dirtOptions.bind):\(surface.port) (UDP); \(clock)")
    }
}
