import DesktopNotificationsSupport
import Foundation
import Testing

@Suite("OutsideJSON: nesting is checked before JSONDecoder sees the bytes")
struct OutsideJSONTests {
    private static func nested(_ depth: Int, open: String = "[", close: String = "]", closed: Bool = true) -> Data {
        Data((String(repeating: open, count: depth) + (closed ? String(repeating: close, count: depth) : "")).utf8)
    }

    @Test("513 unclosed arrays, which trap swift-foundation's JSONDecoder, are refused with a DecodingError")
    func theTrappingInputIsRefused() {
        #expect(throws: DecodingError.self) { try OutsideJSON.decode([Int].self, from: Self.nested(513, closed: false)) }
        #expect(throws: DecodingError.self) { try OutsideJSON.checkNesting(Self.nested(513, open: "{\"a\":", closed: false)) }
    }

    @Test("nesting up to the limit is left to the decoder; one level more is refused, arrays and objects alike")
    func theLimit() throws {
        let limit = OutsideJSON.maximumDepth
        try OutsideJSON.checkNesting(Self.nested(limit))
        #expect(throws: DecodingError.self) { try OutsideJSON.checkNesting(Self.nested(limit + 1)) }
        let objects = Data((String(repeating: "{\"k\":", count: limit) + "1" + String(repeating: "}", count: limit)).utf8)
        try OutsideJSON.checkNesting(objects)
        #expect(throws: DecodingError.self) { try OutsideJSON.checkNesting(Data("[".utf8) + objects + Data("]".utf8)) }
    }

    @Test("brackets inside strings, escaped quotes included, do not count")
    func stringsDoNotCount() throws {
        let brackets = String(repeating: "[{", count: 600)
        let text = "[\"\(brackets)\", \"a \\\" quote then \(brackets)\", {\"\(brackets)\": 1}]"
        try OutsideJSON.checkNesting(Data(text.utf8))
        let decoded = try OutsideJSON.decode([AnyDecodable].self, from: Data(text.utf8))
        #expect(decoded.count == 3)
    }

    @Test("what is not JSON is the decoder's to refuse, with its own error")
    func notJSON() {
        #expect(throws: DecodingError.self) { try OutsideJSON.decode([Int].self, from: Data([0xff, 0x00, 0x5b])) }
        #expect(throws: DecodingError.self) { try OutsideJSON.decode([Int].self, from: Data()) }
    }
}

/// Any JSON value, decoded and dropped.
private struct AnyDecodable: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyDecodable.self) }
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            for key in object.allKeys { _ = try object.decode(AnyDecodable.self, forKey: key) }
        } else {
            let value = try decoder.singleValueContainer()
            if (try? value.decode(String.self)) == nil { _ = try? value.decode(Double.self) }
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
