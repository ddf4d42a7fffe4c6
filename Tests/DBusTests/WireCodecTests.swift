@testable import DBus
import Testing

@Suite("Wire codec")
struct WireCodecTests {
    static let samples: [DBusValue] = [
        .byte(0xFE), .boolean(true), .boolean(false), .int16(-2), .uint16(65535), .int32(-70000),
        .uint32(4_000_000_000), .int64(-1 << 40), .uint64(1 << 63), .double(-0.5), .string(""),
        .string("héllo ☃ 𝄞"), .objectPath(try! DBusObjectPath("/org/example/Thing_1")),
        .signature(try! DBusSignature("a{sv}(iiibiiay)")), .stringArray([]), .stringArray(["a", "b"]),
        .byteArray([]), .byteArray(Array(0...255)),
        .variantDictionary([("urgency", .byte(2)), ("x", .int32(-4)), ("nested", .variant(.stringArray(["q"])))]),
        .structure([.byte(1), .double(2), .string("three")]),
        .array(element: .structure([.byte, .variant]), [.structure([.byte(5), .variant(.uint64(9))])]),
        .dictionary(key: .uint32, value: .array(.int16), [DBusDictionaryEntry(.uint32(7), .array(element: .int16, [.int16(1)]))]),
        .variant(.variant(.boolean(true))),
    ]

    @Test("every kind of value survives marshalling and parsing", arguments: samples)
    func roundTrip(_ value: DBusValue) throws {
        var message = try DBusMessage.signal(
            path: DBusObjectPath("/a"), interface: "org.example.I", member: "S", body: [.byte(1), value])
        message.sender = ":1.7"
        let bytes = try message.marshal(serial: 42)
        let parsed = try DBusMessage(wire: bytes)
        #expect(parsed.body == message.body)
        #expect(parsed.serial == 42)
        #expect(parsed.sender == ":1.7")
        #expect(parsed.member == "S")
        #expect(parsed.bodySignature == "y" + value.type.signature)
    }

    @Test("a value that does not fit its declared type is a typed error")
    func typeMismatch() throws {
        let bad = DBusValue.array(element: .string, [.string("ok"), .int32(3)])
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [bad])
        #expect(throws: DBusError.typeMismatch(expected: "s", found: "i")) { try message.marshal(serial: 1) }
    }

    /// Values nested past the spec's limits, by what they show.
    static let tooDeep: [String: DBusValue] = [
        "65 variants": nested(65) { .variant($0) },
        "33 arrays": nested(33) { .array(element: $0.type, [$0]) },
        "33 structures": nested(33) { .structure([$0]) },
        "an empty array whose type holds 34 arrays": .array(element: .array(nestedArrayType(32)), []),
    ]

    /// Values nested right up to the spec's limits.
    static let deepestAllowed: [String: DBusValue] = [
        "64 variants": nested(64) { .variant($0) },
        "32 arrays": nested(32) { .array(element: $0.type, [$0]) },
        "32 structures": nested(32) { .structure([$0]) },
        "32 arrays around 32 structures": nested(32, around: nested(32) { .structure([$0]) }) { .array(element: $0.type, [$0]) },
    ]

    @Test("containers nested past the spec's limits are refused before anything is sent", arguments: tooDeep.keys.sorted())
    func nestingPastTheLimits(_ name: String) throws {
        let value = try #require(Self.tooDeep[name])
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [value])
        #expect(throws: DBusError.nestingTooDeep) { try message.marshal(serial: 1) }
    }

    @Test("received bytes nested past 64 containers are a typed error")
    func readingPastTheLimits() throws {
        let variant: [UInt8] = [1, UInt8(ascii: "v"), 0]
        let bytes = Array(repeatElement(variant, count: 65).joined()) + [1, UInt8(ascii: "i"), 0, 0, 7, 0, 0, 0]
        var reader = WireReader(bytes: bytes, bigEndian: false, start: 0, end: bytes.count)
        #expect(throws: DBusError.nestingTooDeep) { try reader.readValue(.variant) }
    }

    @Test("containers nested right up to the spec's limits are carried", arguments: deepestAllowed.keys.sorted())
    func nestingUpToTheLimits(_ name: String) throws {
        let value = try #require(Self.deepestAllowed[name])
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [value])
        #expect(try DBusMessage(wire: message.marshal(serial: 1)).body == [value])
    }

    /// `levels` applications of `wrap` around `core`.
    static func nested(_ levels: Int, around core: DBusValue = .int32(7), _ wrap: (DBusValue) -> DBusValue) -> DBusValue {
        (0..<levels).reduce(core) { inner, _ in wrap(inner) }
    }

    /// `levels` nested array types around `y`.
    static func nestedArrayType(_ levels: Int) -> DBusType {
        (0..<levels).reduce(DBusType.byte) { inner, _ in .array(inner) }
    }

    @Test("a NUL inside a string is refused before anything is sent")
    func nulInString() throws {
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [.string("a\u{0}b")])
        #expect(throws: DBusError.invalidString("a\u{0}b", reason: "contains a NUL character")) { try message.marshal(serial: 1) }
    }

    /// A received string's bytes, put in place of "wxyz" in a marshalled signal, and whether the
    /// reader must take them.
    static let receivedStrings: [(bytes: [UInt8], valid: Bool)] = [
        (Array("wxyz".utf8), true),
        (Array("é☃".utf8).prefix(4).map { $0 }, false), // the snowman cut short
        ([0x61, 0x00, 0x62, 0x63], false), // a NUL inside
        ([0x00, 0x61, 0x62, 0x63], false), // a NUL first
        ([0x61, 0x62, 0x63, 0xFF], false), // a byte UTF-8 never has
        ([0xC0, 0xAF, 0x61, 0x62], false), // an overlong "/"
        ([0xED, 0xA0, 0x80, 0x61], false), // a surrogate
        ([0xF0, 0x9D, 0x84, 0x9E], true), // 𝄞, four bytes
    ]

    @Test("a received string is taken only as UTF-8 without NUL, whatever its bytes", arguments: receivedStrings.indices)
    func receivedStringBytes(_ index: Int) throws {
        let (replacement, valid) = Self.receivedStrings[index]
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [.string("wxyz"), .uint32(7)])
        var bytes = try message.marshal(serial: 1)
        let at = try #require((0...(bytes.count - 4)).last { bytes[$0..<($0 + 4)].elementsEqual("wxyz".utf8) })
        bytes.replaceSubrange(at..<(at + 4), with: replacement)
        if valid {
            let parsed = try DBusMessage(wire: bytes)
            #expect(parsed.body == [.string(String(decoding: replacement, as: UTF8.self)), .uint32(7)])
        } else {
            #expect(throws: DBusError.malformed("string is not valid UTF-8 without NUL")) { try DBusMessage(wire: bytes) }
        }
    }

    @Test("an oversized message is refused with its size and the limit")
    func messageLimit() throws {
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [.byteArray(Array(repeating: 0, count: 2000))])
        #expect(throws: DBusError.self) { try message.marshal(serial: 1, limit: 1000) }
    }

    @Test("a big byte array is carried as one block")
    func bigByteArray() throws {
        let data = [UInt8](repeating: 0xAB, count: 8 * 1024 * 1024)
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [.byteArray(data)])
        let parsed = try DBusMessage(wire: try message.marshal(serial: 1))
        #expect(parsed.body == [.byteArray(data)])
    }

    @Test("a body that would decode into more values than the limit is refused")
    func tooManyValues() throws {
        let limit = WireLimits.maxDecodedValues
        let numbers = DBusValue.array(element: .int32, (0..<limit).map { .int32(Int32($0)) })
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [numbers])
        let bytes = try message.marshal(serial: 1)
        do {
            _ = try DBusMessage(wire: bytes)
            Issue.record("a body of \(limit + 1) values was decoded")
        } catch {
            #expect(error == .tooManyValues(limit: limit))
        }
    }

    @Test("a body just under the value limit is decoded whole")
    func manyValuesUnderTheLimit() throws {
        let count = WireLimits.maxDecodedValues - 16
        let numbers = DBusValue.array(element: .int32, (0..<count).map { .int32(Int32($0)) })
        let message = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [numbers])
        let parsed = try DBusMessage(wire: message.marshal(serial: 1))
        #expect(parsed.body.first == numbers)
    }

    @Test("mangled bytes give errors, never a crash")
    func mangledBytes() throws {
        var message = try DBusMessage.methodCall(
            destination: "org.freedesktop.Notifications", path: DBusObjectPath("/org/freedesktop/Notifications"),
            interface: "org.freedesktop.Notifications", member: "Notify", body: Self.samples)
        message.sender = ":1.1"
        let bytes = try message.marshal(serial: 9)
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        for _ in 0..<3000 {
            var mangled = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mangled[Int.random(in: 0..<mangled.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { mangled.removeLast(Int.random(in: 0..<mangled.count, using: &generator)) }
            do { _ = try DBusMessage(wire: mangled) } catch { failures += 1 }
        }
        #expect(failures > 0)
    }

    @Test("the header layout matches the spec: little endian, type, flags, version, lengths, serial")
    func headerLayout() throws {
        let message = try DBusMessage.methodCall(
            destination: "org.example.Dest", path: DBusObjectPath("/p"), interface: "org.example.I",
            member: "M", body: [.uint32(0x01020304)], flags: .noAutoStart)
        let bytes = try message.marshal(serial: 0x0A0B0C0D)
        #expect(Array(bytes[0..<4]) == [UInt8(ascii: "l"), 1, 2, 1])
        #expect(Array(bytes[4..<8]) == [4, 0, 0, 0])
        #expect(Array(bytes[8..<12]) == [0x0D, 0x0C, 0x0B, 0x0A])
        #expect(Array(bytes.suffix(4)) == [4, 3, 2, 1])
        #expect(bytes.count % 4 == 0)
    }
}

@Suite("Signatures and names")
struct SignatureAndNameTests {
    @Test("valid signatures parse back to themselves", arguments: ["y", "a{sv}", "(iiibiiay)", "aa{s(ii)}", "v", "a(yv)"])
    func validSignatures(_ text: String) throws {
        #expect(try DBusType(parsing: text).signature == text)
    }

    @Test("invalid signatures are typed errors", arguments: ["", "a", "(", "()", "a{vs}", "a{sv", "{sv}", "z", "ss", String(repeating: "a", count: 33) + "y"])
    func invalidSignatures(_ text: String) {
        #expect(throws: DBusError.self) { try DBusType(parsing: text) }
    }

    @Test("object paths follow the spec")
    func objectPaths() {
        for good in ["/", "/a", "/a/b_c/D9"] { #expect(DBusNames.isValidObjectPath(good), "\(good)") }
        for bad in ["", "a", "/a/", "//", "/a//b", "/a-b", "/ä"] { #expect(!DBusNames.isValidObjectPath(bad), "\(bad)") }
    }

    @Test("bus, interface and member names follow the spec")
    func names() {
        #expect(DBusNames.isValidBusName(":1.42"))
        #expect(DBusNames.isValidBusName("org.freedesktop.Notifications"))
        #expect(DBusNames.isValidBusName("org.example.with-hyphen"))
        #expect(!DBusNames.isValidBusName("single"))
        #expect(!DBusNames.isValidBusName("org..x"))
        #expect(!DBusNames.isValidBusName("org.9x"))
        #expect(DBusNames.isValidInterfaceName("org.freedesktop.Notifications"))
        #expect(!DBusNames.isValidInterfaceName("org.with-hyphen"))
        #expect(DBusNames.isValidMemberName("Notify"))
        #expect(!DBusNames.isValidMemberName("9Notify"))
        #expect(!DBusNames.isValidMemberName("No.tify"))
        #expect(!DBusNames.isValidMemberName(""))
    }

    @Test("match rules quote values and check messages on this side")
    func matchRules() throws {
        let rule = DBusMatchRule(interface: "org.example.I", member: "S", arguments: [0: "it's"], signature: "s")
        #expect(rule.text == "type='signal',interface='org.example.I',member='S',arg0='it'\\''s'")
        var signal = try DBusMessage.signal(path: .root, interface: "org.example.I", member: "S", body: [.string("it's")])
        #expect(rule.matches(signal))
        signal.body = [.string("other")]
        #expect(!rule.matches(signal))
        signal.body = [.string("it's"), .int32(1)]
        #expect(!rule.matches(signal))
    }
}
