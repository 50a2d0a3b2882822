import CJack

// A probe's JACK client (MachineTwin, CycleClock): activated and closed in one place each.

/// Deactivates and closes a probe client, then frees its state (`free`): after the close its
/// callback can no longer run. (Deactivating a client that was never activated does nothing.)
// Thread: NRT (the test's)
func closeProbe(_ client: OpaquePointer, free: () -> Void) {
    jack_deactivate(client)
    jack_client_close(client)
    free()
}

/// Sets a probe client's process callback and activates it; on failure closes the client,
/// frees its state (`free`) and throws, naming the probe and the server.
// Thread: NRT (the test's)
func activateProbe<State>(_ client: OpaquePointer, _ process: JackProcessCallback, _ state: UnsafeMutablePointer<State>,
                          what: String, server: String, free: () -> Void) throws {
    jack_set_process_callback(client, process, state)
    let activated = jack_activate(client)
    guard activated == 0 else {
        closeProbe(client, free: free)
        throw TestFailure("jack_activate of \(what) on \(server) failed: code \(activated)")
    }
}
