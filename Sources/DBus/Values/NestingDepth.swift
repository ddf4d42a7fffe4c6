/// How deeply containers nest at one point of a value, checked against the spec's limits: at
/// most 32 arrays and 32 structures within one signature, and 64 containers in all, variants
/// included (each variant starts a new signature). libdbus refuses anything deeper, and every
/// walk over a value (reading, writing, parsing text) recurses once per level, so the limit
/// also keeps hostile input from exhausting the stack.
struct NestingDepth: Sendable {
    static let maximumArrays = 32
    static let maximumStructures = 32
    static let maximumContainers = 64

    /// The kinds of container that count.
    enum Container {
        /// An array or a dictionary (an array of dictionary entries).
        case array
        case structure
        case variant
    }

    private var arrays = 0
    private var structures = 0
    private var containers = 0

    /// The depth of a message body's top level.
    static let top = NestingDepth()

    /// The depth inside one more `container`.
    ///
    /// - Throws: ``DBusError/nestingTooDeep`` past a limit.
    func entering(_ container: Container) throws(DBusError) -> NestingDepth {
        var inner = self
        inner.containers += 1
        switch container {
        case .array: inner.arrays += 1
        case .structure: inner.structures += 1
        case .variant: (inner.arrays, inner.structures) = (0, 0)
        }
        guard inner.arrays <= Self.maximumArrays, inner.structures <= Self.maximumStructures,
              inner.containers <= Self.maximumContainers else { throw .nestingTooDeep }
        return inner
    }
}
