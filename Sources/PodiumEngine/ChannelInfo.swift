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
    /// Podium's own channels (`podium.*`: the beat clock, the markers, the voice count): never
    /// the performer's to set, show or keep.
    public var isPodiums: Bool { name.hasPrefix("podium.") }
    /// A control channel the performer sets: what sessions and presets keep, what an engine
    /// rebuild carries over, what the stage page shows as controls.
    public var isPerformerInput: Bool { kind == .control && isInput && !isPodiums }
    /// A control channel the orchestra writes for the performer to see (feedback, meters).
    public var isPerformerOutput: Bool { kind == .control && isOutput && !isPodiums }
    /// From `chn_k`'s imin/imax/idflt when given (itype 1–3).
    public var range: Range?
    /// Where a generated control goes: `chn_k`'s ix, iy, iwidth, iheight (a front end's own
    /// units; Podium's page reads them as pixels of a canvas), when a width and height are given.
    public struct Place: Codable, Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
    public var place: Place?
    /// `chn_k`'s Sattributes (free text; Podium's page reads `key=value` words from it).
    public var attributes: String?

    public init(name: String, kind: Kind, isInput: Bool, isOutput: Bool, range: Range?, place: Place? = nil, attributes: String? = nil) {
        self.name = name
        self.kind = kind
        self.isInput = isInput
        self.isOutput = isOutput
        self.range = range
        self.place = place
        self.attributes = attributes
    }
}
