/// What one compile may cost before anything of it reaches the performing engine: the check
/// child (`podium check --stdin`) runs under these limits and is killed past them, and a table
/// or array whose size is written as a constant is refused before anything allocates it when it
/// would take more than a quarter of the memory limit (`TableBudget`). The staging engine that
/// builds big tables off the audio thread only computes what passed the check, so its cost is
/// bounded by the same limits. `podium play --compile-cpu-limit/--compile-memory-limit/--compile-time-limit`.
public struct CompileLimits: Sendable, Equatable {
    /// CPU time of the check child (RLIMIT_CPU; SIGXCPU past it).
    public var cpuSeconds: Int
    /// Address space of the check child (RLIMIT_AS), in MiB.
    public var memoryMiB: Int
    /// Wall time of the check (the child is killed past it).
    public var wallSeconds: Double

    public init(cpuSeconds: Int = 2, memoryMiB: Int = 1024, wallSeconds: Double = 5) {
        self.cpuSeconds = cpuSeconds
        self.memoryMiB = memoryMiB
        self.wallSeconds = wallSeconds
    }

    /// The largest table or array a compile may ask for: a quarter of the memory limit.
    public var tableBytes: Int { memoryMiB * 1024 * 1024 / 4 }
}
