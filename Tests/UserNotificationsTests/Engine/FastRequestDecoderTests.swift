import Foundation
import Testing
@testable import UserNotifications

@Suite("The agent's fast reader of request JSON reads what JSONDecoder reads")
struct FastRequestDecoderTests {
    /// A generator with a fixed seed, so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\n", "\t", "\u{1F}", "\u{7F}", "é", "😀", "\u{2028}", "{", "}", "[", "\\u",
    ]

    static func text(_ generator: inout Generator) -> String {
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func request(_ generator: inout Generator) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = text(&generator)
        content.subtitle = text(&generator)
        content.body = text(&generator)
        content.categoryIdentifier = text(&generator)
        content.threadIdentifier = text(&generator)
        content.summaryArgument = text(&generator)
        content.summaryArgumentCount = Int.random(in: -5...Int.max, using: &generator)
        content.relevanceScore = Double.random(in: 0...1, using: &generator)
        content.interruptionLevel = [.passive, .active, .timeSensitive, .critical].randomElement(using: &generator)!
        if Bool.random(using: &generator) { content.badge = NSNumber(value: Int.random(in: Int.min...Int.max, using: &generator)) }
        if Bool.random(using: &generator) { content.targetContentIdentifier = text(&generator) }
        if Bool.random(using: &generator) { content.filterCriteria = text(&generator) }
        let interval = Double.random(in: 1...1e9, using: &generator)
        let trigger: UNNotificationTrigger? = switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: Bool.random(using: &generator))
        case 2: UNTimeIntervalNotificationTrigger(
            timeInterval: max(interval, 60), repeats: true,
            anchorDate: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)))
        default: UNPushNotificationTrigger()
        }
        return UNNotificationRequest(identifier: text(&generator), content: content, trigger: trigger)
    }

    static func full(_ json: String) -> NotificationRequestSnapshot? {
        try? JSONDecoder().decode(NotificationRequestSnapshot.self, from: Data(json.utf8))
    }

    @Test("2,000 random requests of the common shape: written as JSONEncoder writes them, read by the fast reader, equal to JSONDecoder's")
    func randomRequests() throws {
        var generator = Generator(state: 12)
        for _ in 0..<2_000 {
            let request = Self.request(&generator)
            let json = try AgentPayload.encode(request)
            // The payload's writer writes what JSONEncoder writes.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(json == String(decoding: try encoder.encode(try NotificationRequestSnapshot(request)), as: UTF8.self))
            let fast = try #require(FastRequestDecoder.request(from: json), "not read: \(json)")
            #expect(fast == Self.full(json), "\(json)")
        }
    }

    @Test("white space, key order, escapes and unknown keys read as JSONDecoder reads them")
    func spellings() throws {
        let json = try AgentPayload.encode(UNNotificationRequest(
            identifier: "id", content: UNMutableNotificationContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        let variants = [
            json.replacingOccurrences(of: ",", with: " ,\n\t").replacingOccurrences(of: ":", with: "\r: "),
            json.replacingOccurrences(of: "\"title\":\"\"", with: "\"title\":\"\\u00e9\\/\\ud83d\\ude00\\b\\f\\n\\r\\t\\\"\\\\\\u0000\""),
            json.replacingOccurrences(of: "{\"content\":", with: "{\"extra\":[1,{\"x\":null}],\"content\":"),
            json.replacingOccurrences(of: "\"relevanceScore\":0", with: "\"relevanceScore\":-0.5e-3"),
            "  " + json + "\n",
        ]
        for variant in variants {
            let fast = try #require(FastRequestDecoder.request(from: variant), "not read: \(variant)")
            #expect(fast == Self.full(variant), "\(variant)")
        }
        #expect(FastRequestDecoder.request(from: variants[1])?.content.title == "é/😀\u{8}\u{C}\n\r\t\"\\\u{0}")
    }

    @Test("other shapes are left to JSONDecoder, which decides as before")
    func leftToJSONDecoder() throws {
        let content = UNMutableNotificationContent()
        content.title = "t"
        let json = try AgentPayload.encode(UNNotificationRequest(
            identifier: "id", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        content.userInfo = ["k": "v"]
        content.sound = .default
        let rich = try AgentPayload.encode(UNNotificationRequest(identifier: "rich", content: content, trigger: nil))
        let calendar = try AgentPayload.encode(UNNotificationRequest(
            identifier: "cal", content: UNMutableNotificationContent(),
            trigger: UNCalendarNotificationTrigger(dateComponents: DateComponents(hour: 9), repeats: true)))
        // Read by JSONDecoder alone, and the same value comes out of the payload's reader.
        for text in [
            rich, calendar,
            json.replacingOccurrences(of: "\"interruptionLevel\":1", with: "\"interruptionLevel\":1.0"),
        ] {
            #expect(FastRequestDecoder.request(from: text) == nil, "\(text)")
            let snapshot = try #require(Self.full(text), "\(text)")
            #expect(try AgentPayload.request(from: text).identifier == snapshot.identifier)
        }
        // Refused by both: the payload's error stays JSONDecoder's typed one.
        for text in [
            json.replacingOccurrences(of: "{\"content\":", with: "{\"identifier\":\"twice\",\"content\":"),
            json.replacingOccurrences(of: "\"title\":\"t\"", with: "\"title\":\"\\ud800\""),
            json.replacingOccurrences(of: "\"title\":\"t\"", with: "\"title\":\"\u{1}\""),
            json.replacingOccurrences(of: "\"interruptionLevel\":1", with: "\"interruptionLevel\":-1"),
            json.replacingOccurrences(of: "\"relevanceScore\":0", with: "\"relevanceScore\":1e999"),
            json.replacingOccurrences(of: "\"repeats\":false", with: "\"repeats\":0"),
            json + "x", String(json.dropLast()), "", "null",
            String(repeating: "[", count: 100_000),
            "{" + (0..<100_000).map { "\"k\($0)\":0" }.joined(separator: ",") + "}",
        ] {
            #expect(FastRequestDecoder.request(from: text) == nil, "\(text.prefix(200))")
            #expect(AgentPayload.fastDecoderAgrees(on: text) == nil)
        }
    }

    @Test("the tree reader takes RFC 8259 text and nothing else")
    func tree() {
        #expect(JSONTree.parse(" {\"a\" : [1, -2.5e+3, true, false, null, \"x\"], \"b\": {}} ") == .object([
            ("a", .array([.number("1"), .number("-2.5e+3"), .bool(true), .bool(false), .null, .string("x")])), ("b", .object([])),
        ]))
        for bad in ["01", "1.", ".5", "-", "+1", "1e", "[1,]", "{\"a\":1,}", "{a:1}", "'a'", "[1 2]", "tru", "nul", "\"\\x\"", "\"\\u12\"",
                    "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"open", "[", "{", "1 1"] {
            #expect(JSONTree.parse(bad) == nil, "\(bad)")
        }
        #expect(JSONTree.parse(String(repeating: "[", count: JSONTree.maximumDepth) + String(repeating: "]", count: JSONTree.maximumDepth)) != nil)
        #expect(JSONTree.parse(String(repeating: "[", count: JSONTree.maximumDepth + 1) + String(repeating: "]", count: JSONTree.maximumDepth + 1)) == nil)
    }
}
