import NotifyCLI

extension FuzzTarget {
    /// `HintParser.parse`: a `-h TYPE:NAME:VALUE` argument as a script passes it, `variant:`
    /// values in GVariant text included.
    static let hint = FuzzTarget(
        name: "hint",
        seeds: [
            "int:urgency:2", "INT:x-offset:12abc", "double:volume:0.75", "double:big:1e308", "byte:urgency:255",
            "boolean:transient:true", "boolean:resident:0", "string:sound-name:bell:with:colons",
            "string:category:email.arrived", "variant:x:<int64 3>", "variant:x:[1, 2, 3]", "variant:x:@ai []",
            "variant:x:{'a': <1>, 'b': <'text'>}", "variant:x:('s', 2, true, 1.5)", "variant:x:[byte 0x01, 2, 3]",
            "variant:image-data:(1, 1, 4, true, 8, 4, [byte 0x10, 0x20, 0x30, 0xff])",
            "variant:x:<<<uint16 65535>>>", "variant:x:{'k': [int32 -2147483648, 2147483647]}",
            "variant:x:\"esc\\u00e9\\n\\t\\\\\"", "variant:x:objectpath '/org/x'", "variant:x:signature 'a{sv}'",
            "variant:x:[@a{sv} {}, {'n': <uint64 18446744073709551615>}]", "variant:x:{1: 'one', 2: 'two'}",
            "variant:x:int64 -9223372036854775808", "variant:x:[[1], [2, 3], []]", "variant:x:true",
        ].map { Array($0.utf8) },
        tokens: [
            "int:", "double:", "byte:", "boolean:", "string:", "variant:", ":", "<", ">", "[", "]", "(", ")", "{", "}",
            ",", "@", "@a{sv}", "@ai", "@(ii)", "@mv", "int64 ", "uint64 ", "byte ", "objectpath ", "signature ",
            "boolean ", "double ", "0x", "'", "\"", "\\u", "\\U0010ffff", "\\U00110000", "\\", "1e", "-0x", "true",
            "nothing", "just ", "<@a{sv} {}>", "{<1>: 2}",
        ].map { Array($0.utf8) },
        nesting: ["[", "<", "(", "{'a': ", "[(", "<[", "@aav [[", "[@a{sv} {"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            do {
                _ = try HintParser.parse(String(decoding: bytes, as: UTF8.self))
                return .accepted
            } catch {
                return .refused
            }
        }
    )
}
