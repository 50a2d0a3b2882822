import PodiumRealtime
/// What control surfaces (REPL `:record`, OSC `/podium/record/*`) may ask of session recording.
/// Implemented by the session layer; surfaces only see this.
public protocol RecordingControl: AnyObject, Sendable {
    /// Starts a recording; returns its directory. Throws with the reason it cannot.
    func startRecording() throws -> String
    /// Stops the recording; returns a summary, or nil when none was running.
    func stopRecording() -> String?
    /// The directory being recorded into, if any.
    var recordingDirectory: String? { get }
}
