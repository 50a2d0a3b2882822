/// A channel the orchestra declared (`chn_k`, `chn_S`, `chn_a`) or the host created.
public struct ChannelInfo: Equatable, Sendable {
    public enum Kind: Sendable { case control, audio, string, other }
    public enum Curve: Sendable, Equatable {
        case none, integer, linear, exponential
        init(behaviour: UInt32) {
            switch behaviour { case 1: self = .integer; case 2: self = .linear; case 3: self = .exponential; default: self = .none }
        }
    }
    public struct Range: Equatable, Sendable {
        public var minimum: Double
        public var maximum: Double
        public var defaultValue: Double
        public var curve: Curve
        public init(minimum: Double, maximum: Double, defaultValue: Double, curve: Curve) {
            self.minimum = minimum
            self.maximum = maximum
            self.defaultValue = defaultValue
            self.curve = curve
        }
    }
    public var name: String
    public var kind: Kind
    /// The orchestra reads it (`chn_k "x", 1` or 3): the host may write it.
    public var isInput: Bool
    /// The orchestra writes it (mode 2 or 3): the host may read it.
    public var isOutput: Bool
    /// From `chn_k`'s imin/imax/idflt when given (itype 1–3).
    public var range: Range?
}
