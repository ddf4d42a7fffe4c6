/// The one-letter C escapes that the text formats read here share: GVariant's text format
/// (`gdbus call`'s values) and `g_strcompress` (the bodies and hints `notify-send` expands).
package enum CEscape {
    /// The byte that `\` followed by `letter` stands for (`n` is a line feed, `t` a tab,
    /// `r`, `b`, `f`, `v`), or `nil` when `letter` names no such escape.
    package static func byte(for letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "b"): 8
        case UInt8(ascii: "f"): 12
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "r"): 13
        case UInt8(ascii: "t"): 9
        case UInt8(ascii: "v"): 11
        default: nil
        }
    }
}
