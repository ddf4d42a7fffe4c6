/// Why a text is not a value in ``GVariantText``.
public enum GVariantTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is longer than ``GVariantText/maximumLength`` bytes.
    case tooLong(length: Int, limit: Int)
    /// Containers nest deeper than D-Bus allows (32 arrays and 32 structures per signature,
    /// 64 containers in all, variants included); `offset` is the UTF-8 offset where.
    case nestingTooDeep(offset: Int)
    /// The text does not follow the format, or names a value D-Bus cannot carry; `offset` is
    /// the UTF-8 offset where the parser gave up.
    case invalid(offset: Int, reason: String)

    public var description: String {
        switch self {
        case .tooLong(let length, let limit): "GVariant text of \(length) bytes exceeds the limit of \(limit) bytes"
        case .nestingTooDeep(let offset):
            "GVariant text nests deeper than D-Bus allows (32 arrays, 32 structures, 64 containers) at byte \(offset)"
        case .invalid(let offset, let reason): "invalid GVariant text at byte \(offset): \(reason)"
        }
    }
}
