import Foundation
import PodiumEngine
import PodiumSurfaces

/// Podium's own requests over OSC: recording, presets, reload, status. Each is answered
/// `/podium/done` or `/podium/fail` (status: `/podium/status.reply`).
extension OSCSurface {
    // Thread: NRT (OSC)
    /// `/podium/record/start|stop` → `/podium/done ,s DIRECTORY|SUMMARY` or `/podium/fail ,s REASON`.
    func record(_ action: String, _ source: Endpoint) {
        guard let recording else { return reply(to: source, "/podium/fail", [.string("recording is not available (podium play records sessions)")]) }
        switch action {
        case "start":
            do {
                let dir = try recording.startRecording()
                onNotice?("recording to \(dir)")
                reply(to: source, "/podium/done", [.string(dir)])
            } catch {
                onNotice?("\(error)")
                reply(to: source, "/podium/fail", [.string("\(error)")])
            }
        case "stop":
            if let summary = recording.stopRecording() {
                onNotice?(summary)
                reply(to: source, "/podium/done", [.string(summary)])
            } else {
                reply(to: source, "/podium/fail", [.string("not recording")])
            }
        default:
            reply(to: source, "/podium/fail", [.string("use /podium/record/start or /podium/record/stop")])
        }
    }

    /// `/podium/preset/save|load ,s NAME` → `/podium/done ,s` or `/podium/fail ,s REASON`.
    func preset(_ action: String, _ m: OSCMessage, _ source: Endpoint) {
        guard let presets else { return reply(to: source, "/podium/fail", [.string("presets are not available")]) }
        guard let name = m.arguments.first?.string, action == "save" || action == "load" else {
            return bad(m, source, "use /podium/preset/save or /podium/preset/load with a name (,s)")
        }
        do {
            let result = action == "save" ? try presets.save(name, driver: driver) : try presets.load(name, producer: producer)
            reply(to: source, "/podium/done", [.string(result)])
        } catch {
            reply(to: source, "/podium/fail", [.string("\(error)")])
        }
    }

    func reload(_ source: Endpoint) {
        if let reloader {
            // The file's reload keeps this sender's order: its next messages wait for the answer.
            return lane.step(key: source.description) { [self] done in
                reloader.reload { [self] outcome in
                    lane.exclusive {
                        switch outcome {
                        case .unchanged: reply(to: source, "/podium/done", [.string("unchanged: nothing to compile")])
                        case let .compiled(_, instruments):
                            reply(to: source, "/podium/done", [.string("compiled " + (instruments.isEmpty ? "global code" : "instr " + instruments.joined(separator: ", ")))])
                        case let .failed(message): reply(to: source, "/podium/fail", [.string(message)])
                        }
                    }
                    done()
                }
            }
        }
        guard let file = orchestraFile else { return reply(to: source, "/podium/fail", [.string("no orchestra file to reload")]) }
        do {
            let text: String
            switch file {
            case let .csd(path), let .orchestra(path, _): text = try CSDSections.orchestra(ofFile: path)
            case let .text(orchestra, _, _): text = orchestra
            }
            compileText(text, source: file.displayName, replyTo: source)
        } catch {
            reply(to: source, "/podium/fail", [.string("\(error)")])
        }
    }

    /// `/podium/status` → `/podium/status.reply ,iiiiiififiiff`: sr, ksmps, period, k-cycles, xruns, commands, load %,
    /// instruments, the last reload's callback (ms), then Link: on, peers, tempo, beat (OSCLink.swift).
    func status(_ source: Endpoint) {
        let s = driver.stats
        let e = driver.engine
        reply(to: source, "/podium/status.reply", [
            .int(Int64(e.sampleRate)), .int(Int64(e.ksmps)), .int(Int64(s.lastPeriod)), .int(Int64(s.cycles)),
            .int(Int64(s.xruns)), .int(Int64(s.commands)), .float(s.dspLoad),
            .int(Int64(e.instrumentsLearnt.numbers.count + e.instrumentsLearnt.names.count)),
            .float(s.lastMergeCallbackMicroseconds / 1000),
        ] + linkArguments)
    }
}
