import DBus
import Testing

@Suite("GVariant text")
struct GVariantTextTests {
    @Test("values parse to their D-Bus form", arguments: [
        ("<int64 3>", DBusValue.variant(.int64(3))),
        ("[1, 2]", .array(element: .int32, [.int32(1), .int32(2)])),
        ("'it\\'s'", .string("it's")),
        ("@ay [1, 2]", .byteArray([1, 2])),
        ("@as []", .stringArray([])),
        ("{'k': <1>}", .dictionary(key: .string, value: .variant, [DBusDictionaryEntry(.string("k"), .variant(.int32(1)))])),
        ("(1, 'x', true)", .structure([.int32(1), .string("x"), .boolean(true)])),
        ("objectpath '/a/b'", .objectPath(try! DBusObjectPath("/a/b"))),
        ("uint32 0x10", .uint32(16)),
        ("1.5", .double(1.5)),
    ])
    func parses(text: String, value: DBusValue) throws {
        #expect(try GVariantText.parse(text) == value)
    }

    @Test("nesting up to D-Bus's limits parses", arguments: [
        String(repeating: "<", count: 64) + "1" + String(repeating: ">", count: 64),
        String(repeating: "[", count: 32) + "1" + String(repeating: "]", count: 32),
        String(repeating: "(", count: 32) + "1" + String(repeating: ")", count: 32),
    ])
    func deepestAllowed(text: String) throws {
        _ = try GVariantText.parse(text)
    }

    @Test("nesting past D-Bus's limits is a typed error, however deep", arguments: [
        String(repeating: "<", count: 65) + "1" + String(repeating: ">", count: 65),
        String(repeating: "[", count: 33) + "1" + String(repeating: "]", count: 33),
        String(repeating: "(", count: 33) + "1" + String(repeating: ")", count: 33),
        String(repeating: "{1: ", count: 33) + "1" + String(repeating: "}", count: 33),
        "[@" + String(repeating: "a", count: 32) + "i []]",
        String(repeating: "[", count: 100_000),
    ])
    func tooDeep(text: String) {
        #expect {
            try GVariantText.parse(text)
        } throws: { error in
            if case GVariantTextError.nestingTooDeep = error { true } else { false }
        }
    }

    @Test("a type whose signature passes 255 bytes is refused")
    func signatureTooLong() {
        let tuple = "(" + Array(repeating: "1", count: 256).joined(separator: ", ") + ")"
        #expect {
            try GVariantText.parse(tuple)
        } throws: { error in
            if case GVariantTextError.invalid = error { true } else { false }
        }
    }

    @Test("text longer than the limit is refused before it is read")
    func tooLong() {
        let text = "'" + String(repeating: "x", count: GVariantText.maximumLength) + "'"
        #expect(throws: GVariantTextError.tooLong(length: text.utf8.count, limit: GVariantText.maximumLength)) {
            try GVariantText.parse(text)
        }
    }

    @Test("malformed text says where it went wrong", arguments: ["<<", "[1, 'a']", "[]", "just 3", "(1, 2", "@zz 1", "1 2"])
    func malformed(text: String) {
        #expect {
            try GVariantText.parse(text)
        } throws: { error in
            if case GVariantTextError.invalid(let offset, _) = error { offset <= text.utf8.count } else { false }
        }
    }
}
