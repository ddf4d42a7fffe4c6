/// Reads GLib's GVariant text format, the form `g_variant_parse`, `gdbus call` and
/// `notify-send -h variant:NAME:VALUE` take, into a ``DBusValue``.
///
/// Understood: numbers (decimal, `0x` hexadecimal, octal with a leading `0`), `true` and
/// `false`, strings in single or double quotes with C escapes and `\u`/`\U` code points, typed
/// values (`int64 3`, `uint32 7`, `objectpath '/a'`, `signature 'as'`, `@ai [1]`), variants
/// `<...>`, arrays `[...]`, tuples `(...)` and dictionaries `{k: v}` or `[{k, v}]`. An
/// integer without a type is an `int32` and a number with a point or an exponent a `double`,
/// as in GLib; an array of bytes becomes ``DBusValue/byteArray(_:)``.
///
/// Where it differs from GLib: maybe types (`just`, `nothing`) and byte strings (`b'...'`)
/// have no D-Bus form and are refused; an empty array needs a type (`@as []`); GLib's
/// `G_VARIANT_MAX_RECURSION_DEPTH` of 128 is replaced by D-Bus's own limits below.
///
/// The text is treated as hostile: it may be at most ``maximumLength`` bytes, and its
/// containers may nest only as deep as a D-Bus message allows (32 arrays and 32 structures
/// within one signature, 64 containers in all counting variants, a signature of at most 255
/// bytes). Anything else is a ``GVariantTextError``, never a crash.
public enum GVariantText {
    /// The longest text accepted, in UTF-8 bytes: twice Linux's limit on one command-line
    /// argument, so no argument is refused for its length alone.
    public static let maximumLength = 256 * 1024

    /// Parses the whole of `text` as one value.
    ///
    /// - Throws: ``GVariantTextError``.
    public static func parse(_ text: String) throws(GVariantTextError) -> DBusValue {
        let length = text.utf8.count
        guard length <= maximumLength else { throw .tooLong(length: length, limit: maximumLength) }
        var parser = GVariantTextParser(text)
        return try parser.parseAll()
    }
}
