import Foundation
import PodiumHost
import PodiumOSC
import PodiumSurfaces
import PodiumWeb

/// A performance's stage page: started after OSC, its console sink, the address to open
/// (and, on a terminal with `qrencode` installed, a QR code of it for a phone).
enum WebSetup {
    // Thread: NRT (owner)
    static func start(driver: JackDriver, options: WebOptions, orchestra: String, map: OSCMap?, router: ConsoleRouter,
                      say: (String) -> Void) throws -> WebSurface {
        let files = ["orchestra": orchestra, "patterns": PatternsSetup.file(beside: orchestra), "loops": LoopsSetup.file(beside: orchestra)]
        let web = WebSurface(driver: driver, options: options, orchestra: (orchestra as NSString).lastPathComponent, map: map, files: files)
        web.onNotice = { router.notice("web: \($0)") }
        web.lanHost = StartHints.lanAddress()
        try web.start()
        router.setSink("web", .init(minimum: .orchestra) { lines in web.console(lines.map(\.text)) })
        say("podium: the stage page: \(web.url)")
        say("podium: the editor (code together, Ctrl-Enter plays): \(web.editorURL) · the audience's view, read-only: \(web.audienceURL)")
        if !options.bind.hasPrefix("127."), isatty(STDERR_FILENO) == 1, let qr = which("qrencode") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: qr)
            p.arguments = ["-t", "ANSIUTF8", web.url]
            p.standardError = FileHandle.nullDevice
            try? p.run()
            p.waitUntilExit()
        }
        return web
    }

    static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
