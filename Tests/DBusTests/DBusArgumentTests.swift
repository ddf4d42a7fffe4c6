@testable import DBus
import Testing

@Suite("Swift types as D-Bus arguments")
struct DBusArgumentTests {
    /// Writes `argument`, sends it through the wire codec in a message, reads it back.
    static func throughTheWire<Argument: DBusArgument>(_ argument: Argument) throws -> Argument {
        let message = try DBusMessage.methodCall(
            destination: "org.example.A", path: try DBusObjectPath("/a"), interface: "org.example.A", member: "M", body: [argument.dbusValue])
        let read = try DBusMessage(wire: try message.marshal(serial: 7))
        #expect(read.bodySignature == Argument.dbusType.signature)
        return try Argument.reading(read.body[0])
    }

    @Test("each mapped type survives the wire as the type it was written as")
    func roundTrips() throws {
        #expect(try Self.throughTheWire(UInt8(0xFE)) == 0xFE)
        #expect(try Self.throughTheWire(true) == true)
        #expect(try Self.throughTheWire(Int16(-2)) == -2)
        #expect(try Self.throughTheWire(UInt16.max) == .max)
        #expect(try Self.throughTheWire(Int32.min) == .min)
        #expect(try Self.throughTheWire(UInt32.max) == .max)
        #expect(try Self.throughTheWire(Int64.min) == .min)
        #expect(try Self.throughTheWire(UInt64.max) == .max)
        #expect(try Self.throughTheWire(-0.5) == -0.5)
        #expect(try Self.throughTheWire("héllo ☃") == "héllo ☃")
        #expect(try Self.throughTheWire(try DBusObjectPath("/org/x")) == (try DBusObjectPath("/org/x")))
        #expect(try Self.throughTheWire(try DBusSignature("a{sv}")) == (try DBusSignature("a{sv}")))
        #expect(try Self.throughTheWire(DBusValue.uint64(9)) == .uint64(9))
        #expect(try Self.throughTheWire([UInt8](0...255)) == Array(0...255))
        #expect(try Self.throughTheWire([String]()) == [])
        #expect(try Self.throughTheWire(["a", "b"]) == ["a", "b"])
        #expect(try Self.throughTheWire([["a"], [], ["b", "c"]]) == [["a"], [], ["b", "c"]])
        #expect(try Self.throughTheWire(["k": DBusValue.stringArray(["v"]), "n": .int32(1)]) == ["k": .stringArray(["v"]), "n": .int32(1)])
        #expect(try Self.throughTheWire([UInt32(7): ["x": "y"]]) == [7: ["x": "y"]])
        #expect(try Self.throughTheWire([DBusValue.boolean(true), .string("s")]) == [.boolean(true), .string("s")])
    }

    @Test("the types stand for their signatures")
    func signatures() {
        #expect([UInt8].dbusType.signature == "ay")
        #expect([String: DBusValue].dbusType.signature == "a{sv}")
        #expect([[String]].dbusType.signature == "aas")
        #expect([UInt32: [String: String]].dbusType.signature == "a{ua{ss}}")
        #expect(DBusFileDescriptor.dbusType.signature == "h")
        #expect([UInt8]([1, 2]).dbusValue == .byteArray([1, 2]))
        // An empty array keeps its element type: it is no byte array.
        #expect([String]().dbusValue == .stringArray([]))
        #expect([UInt8]().dbusValue == .byteArray([]))
    }

    @Test("a value of another type is a typed error naming both signatures")
    func mismatches() {
        #expect(throws: DBusError.typeMismatch(expected: "s", found: "u")) { try String.reading(.uint32(1)) }
        #expect(throws: DBusError.typeMismatch(expected: "u", found: "i")) { try UInt32.reading(.int32(1)) }
        #expect(throws: DBusError.typeMismatch(expected: "as", found: "ai")) { try [String].reading(.array(element: .int32, [.int32(1)])) }
        #expect(throws: DBusError.typeMismatch(expected: "ay", found: "as")) { try [UInt8].reading(.stringArray(["a"])) }
        #expect(throws: DBusError.typeMismatch(expected: "as", found: "ay")) { try [String].reading(.byteArray([1])) }
        #expect(throws: DBusError.typeMismatch(expected: "as", found: "ay")) { try [String].reading(.byteArray([])) }
        #expect(throws: DBusError.typeMismatch(expected: "a{sv}", found: "a{ss}")) {
            try [String: DBusValue].reading(.dictionary(key: .string, value: .string, [DBusDictionaryEntry(.string("a"), .string("b"))]))
        }
        #expect(throws: DBusError.typeMismatch(expected: "v", found: "s")) { try DBusValue.reading(.string("bare")) }
        #expect(throws: DBusError.typeMismatch(expected: "h", found: "s")) { try DBusFileDescriptor.reading(.string("3")) }
        #expect(throws: DBusError.typeMismatch(expected: "a(ss)", found: "as")) { try DBusValue.checked(.stringArray([]), signature: "a(ss)") }
        #expect(throws: DBusError.unexpectedSignature(expected: "su", found: "s")) { try DBusValue.body([.string("a")], count: 2, signature: "su") }
        // An array whose element type says one thing and whose elements say another is refused too.
        #expect(throws: DBusError.typeMismatch(expected: "s", found: "u")) { try [String].reading(.array(element: .string, [.uint32(1)])) }
    }

    @Test("a dictionary with string keys is written sorted by key, the same bytes in every process")
    func sortedKeys() {
        let value: [String: DBusValue] = ["z": .uint32(1), "a": .uint32(2), "m": .uint32(3), "count-visible": .boolean(true), "count": .int64(1)]
        #expect(value.dbusValue == .variantDictionary([
            ("a", .uint32(2)), ("count", .int64(1)), ("count-visible", .boolean(true)), ("m", .uint32(3)), ("z", .uint32(1)),
        ]))
    }

    @Test("a dictionary with a key twice keeps the later value, as variantDictionaryValue does")
    func duplicateKeys() throws {
        let value = DBusValue.dictionary(key: .string, value: .variant, [
            DBusDictionaryEntry(.string("k"), .variant(.uint32(1))), DBusDictionaryEntry(.string("k"), .variant(.uint32(2))),
        ])
        #expect(try [String: DBusValue].reading(value) == ["k": .uint32(2)])
        #expect(value.variantDictionaryValue == ["k": .uint32(2)])
    }

    @Test("a descriptor reads as the same object, still owning its descriptor")
    func descriptor() throws {
        let file = try DBusFileDescriptor(duplicating: 0)
        defer { file.close() }
        let read = try DBusFileDescriptor.reading(.unixFileDescriptor(file))
        #expect(read === file && read.isOpen)
    }
}
