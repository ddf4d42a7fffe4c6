import DBus
import Foundation
import UserNotifications

extension FuzzTarget {
    /// The records a bus peer hands the agent (`Add`, `SetCategories`), the agent hands a
    /// center (`WillPresent`, `Response`, the lists) or a center answers (`ServiceExtension`'s
    /// content): `AgentPayload`'s readers, fed `DBusValue` trees made from the input's bytes
    /// (``AgentRecordMutator``).
    ///
    /// An input is a program: its first byte picks the kind of record, the second whether the
    /// tree is generated field by field or is a valid record of ``AgentRecordCorpus`` (the
    /// third picks which), and each further group of bytes applies one mutation (eight at most). The seeds
    /// are the corpus unchanged. The properties:
    /// - reading never traps or hangs, and returns a value or throws `NotificationAgentError`
    ///   (the readers' typed throws make the type certain; the harness checks the rest);
    /// - a value read re-encodes, and the record it re-encodes to reads back to a value that
    ///   encodes to the same record (records compared with doubles by bit pattern);
    /// - a value read holds nothing the public initialisers refuse (a thumbnail clipping
    ///   rectangle outside the unit square, which the thumbnail's pixel region cannot convert);
    /// - an unmutated corpus record reads back to a value that encodes to the same record
    ///   (`encode(read(encode(x))) == encode(x)`).
    static func agentPayload() -> FuzzTarget {
        let corpus = AgentRecordCorpus.entries
        var seeds: [[UInt8]] = []
        for kind in AgentRecordKind.allCases {
            for index in (corpus[kind] ?? []).indices { seeds.append([UInt8(kind.rawValue), 1, 0, UInt8(index)]) }
        }
        return FuzzTarget(
            name: "agent-payload",
            seeds: seeds,
            tokens: [[0], [0xFF], [0, 0], [0xFF, 0xFF], [0, 8], [0, 6], [0, 7], [0, 2], [0, 13], [1, 0, 0]],
            nesting: [[0, 6, 0xFF, 0xFF], [0, 3, 0, 0]],
            run: { bytes throws(FuzzFinding) in try runAgentPayload(bytes, corpus: corpus) },
            prepare: { () throws(FuzzFinding) in try checkRefusedRecords() }
        )
    }

    /// Records the fuzz found read when they must be refused, checked before the cases: a
    /// request whose attachment has a thumbnail clipping rectangle that is not finite or not
    /// within the unit square (seed 1, cases 12371 and 16566 of 20,000; the thumbnail's pixel
    /// region traps on it when the agent shows the notification).
    private static func checkRefusedRecords() throws(FuzzFinding) {
        let rects: [[Double]] = [[.nan, 0, 1, 1], [0.25, 0.125, .nan, 0.75], [.infinity, 0, 1, 1], [0, 0, 1e300, 1], [0.5, 0, 0.75, 1], [0, 0, 0, 1], [-0.5, 0, 1, 1]]
        for rect in rects {
            let attachment: AgentPayload.Record = [
                "url": .string("file:///tmp/a.png"), "type": .string("public.png"), "thumbnailClippingRect": .structure(rect.map(DBusValue.double)),
            ]
            let record: AgentPayload.Record = [
                "identifier": .string("rect"), "content": ["attachments": DBusValue.array(element: .dictionary(key: .string, value: .variant), [attachment.dbusValue])].dbusValue,
            ]
            if (try? AgentPayload.request(from: record)) != nil {
                throw FuzzFinding(description: "a request with the thumbnail clipping rectangle \(rect) is read, not refused")
            }
        }
    }

    private static func runAgentPayload(_ bytes: [UInt8], corpus: [AgentRecordKind: [[AgentPayload.Record]]]) throws(FuzzFinding) -> Outcome {
        var mutator = AgentRecordMutator(choices: ChoiceStream(bytes))
        let kind = AgentRecordKind.allCases[Int(mutator.choices.byte()) % AgentRecordKind.allCases.count]
        var root: DBusValue
        let original: DBusValue?
        if mutator.choices.byte() % 8 == 0 {
            let schema = RecordSchema.schema(of: kind)
            if kind.isList {
                let count = mutator.choices.below(4)
                root = .array(element: .dictionary(key: .string, value: .variant), (0..<count).map { _ in mutator.record(schema, room: 62) })
            } else {
                root = mutator.record(schema, room: 64)
            }
            original = nil
        } else {
            let entries = corpus[kind] ?? []
            guard !entries.isEmpty else { return .refused }
            let entry = entries[mutator.choices.below(entries.count)]
            root = kind.isList ? entry.dbusValue : (entry.first ?? [:]).dbusValue
            original = root
        }
        // At most eight mutations (each walks the whole tree), so that a long input stays fast.
        var mutated = false
        for _ in 0..<8 where mutator.choices.hasMore {
            root = mutator.mutate(root)
            mutated = true
        }
        let token = bytes.count.isMultiple(of: 3) ? "token-\(bytes.count)" : nil
        guard let value = AgentPayloadValue.read(root, kind: kind, activationToken: token) else { return .refused }
        let encoded: DBusValue
        switch value.encoded() {
        case .success(let records): encoded = records
        case .failure(let error):
            // A record just under the limit may grow by the defaults the writer spells out.
            if case NotificationAgentError.invalidArgument(let text)? = error as? NotificationAgentError, text.contains("bytes, over"),
               AgentRecordMutator.size(of: root) > AgentInterface.maximumArgumentBytes - 4096 { return .accepted }
            throw FuzzFinding(description: "a \(kind) that was read does not encode: \(error)")
        }
        if let problem = invariantProblem(in: encoded) {
            throw FuzzFinding(description: "a \(kind) that was read holds what no app can make: \(problem)")
        }
        if let original, !mutated, !sameRecords(original, encoded, kind: kind) {
            throw FuzzFinding(description: "a \(kind) encoded by AgentPayload reads back to another record:\n\(original)\n\(encoded)")
        }
        guard let again = AgentPayloadValue.read(encoded, kind: kind, activationToken: nil) else {
            throw FuzzFinding(description: "a \(kind) re-encoded from what was read is refused: \(AgentPayloadValue.error(encoded, kind: kind))\n\(encoded)")
        }
        switch again.encoded() {
        case .success(let twice):
            guard sameRecords(encoded, twice, kind: kind) else {
                throw FuzzFinding(description: "a \(kind) does not read back equal after re-encoding:\n\(encoded)\n\(twice)")
            }
        case .failure(let error):
            throw FuzzFinding(description: "a \(kind) read back from its own encoding does not encode: \(error)")
        }
        return .accepted
    }

    /// What a value read holds that the public initialisers refuse, found in its encoding:
    /// a thumbnail clipping rectangle that is not finite, not within the unit square or of
    /// no size (`UNNotificationAttachment(identifier:url:options:)` refuses it, and the
    /// thumbnail's pixel region converts it to integers).
    private static func invariantProblem(in value: DBusValue) -> String? {
        switch value {
        case .dictionary(_, _, let entries):
            for entry in entries {
                if entry.key.stringValue == "thumbnailClippingRect", case .variant(.structure(let fields)) = entry.value {
                    let numbers = fields.compactMap { if case .double(let number) = $0 { number } else { nil } }
                    guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[0] >= 0, numbers[1] >= 0, numbers[2] > 0, numbers[3] > 0,
                          numbers[0] + numbers[2] <= 1 + 1e-9, numbers[1] + numbers[3] <= 1 + 1e-9 else {
                        return "thumbnailClippingRect \(numbers)"
                    }
                }
                if let problem = invariantProblem(in: entry.value) { return problem }
            }
            return nil
        case .array(_, let elements), .structure(let elements):
            return elements.lazy.compactMap(invariantProblem).first
        case .variant(let inner):
            return invariantProblem(in: inner)
        default:
            return nil
        }
    }

    /// Whether two encodings are the same: doubles by bit pattern (a NaN is itself), and
    /// categories in any order (a set of categories with one identifier has no order).
    private static func sameRecords(_ left: DBusValue, _ right: DBusValue, kind: AgentRecordKind) -> Bool {
        if kind == .categories, case .array(let leftType, let leftElements) = left, case .array(let rightType, let rightElements) = right {
            let leftKeys = leftElements.map { String(describing: $0) }.sorted()
            let rightKeys = rightElements.map { String(describing: $0) }.sorted()
            return leftType == rightType && leftKeys == rightKeys
        }
        return left.isSame(as: right)
    }
}

/// A value read from a record of one ``AgentRecordKind``, and its encoding again.
enum AgentPayloadValue {
    case request(UNNotificationRequest)
    case requests([UNNotificationRequest])
    case content(UNNotificationContent)
    case notification(UNNotification)
    case notifications([UNNotification])
    case categories(Set<UNNotificationCategory>)
    case response(UNNotificationResponse)

    /// The value `root` reads to, or `nil` when its reader refuses it (with a
    /// `NotificationAgentError`, the only error the readers' typed throws allow).
    static func read(_ root: DBusValue, kind: AgentRecordKind, activationToken: String?) -> AgentPayloadValue? {
        try? readOrThrow(root, kind: kind, activationToken: activationToken)
    }

    /// Why `root` is refused, for a finding's text.
    static func error(_ root: DBusValue, kind: AgentRecordKind) -> String {
        do {
            _ = try readOrThrow(root, kind: kind, activationToken: nil)
            return "(accepted)"
        } catch {
            return "\(error)"
        }
    }

    private static func readOrThrow(_ root: DBusValue, kind: AgentRecordKind, activationToken: String?) throws(NotificationAgentError) -> AgentPayloadValue {
        if kind.isList {
            // The generated readers hand the agent's readers the `aa{sv}` as records; a tree of
            // another type never reaches them.
            guard let records = try? [AgentPayload.Record].reading(root) else { throw .invalidArgument("not an aa{sv}") }
            switch kind {
            case .requests: return .requests(try AgentPayload.requests(from: records))
            case .notifications: return .notifications(try AgentPayload.notifications(from: records))
            default: return .categories(try AgentPayload.categories(from: records))
            }
        }
        guard let record = try? AgentPayload.Record.reading(root) else { throw .invalidArgument("not an a{sv}") }
        switch kind {
        case .request: return .request(try AgentPayload.request(from: record))
        case .content: return .content(try AgentPayload.content(from: record))
        case .notification: return .notification(try AgentPayload.notification(from: record))
        default: return .response(try AgentPayload.response(from: record, activationToken: activationToken))
        }
    }

    /// The value encoded again, as the tree it travels in.
    func encoded() -> Result<DBusValue, any Error> {
        Result {
            switch self {
            case .request(let request): try AgentPayload.encode(request).dbusValue
            case .requests(let requests): try AgentPayload.encode(requests).dbusValue
            case .content(let content): try AgentPayload.encode(content).dbusValue
            case .notification(let notification): try AgentPayload.encode(notification).dbusValue
            case .notifications(let notifications): try AgentPayload.encode(notifications).dbusValue
            case .categories(let categories): try AgentPayload.encode(categories).dbusValue
            case .response(let response): try AgentPayload.encode(response).dbusValue
            }
        }
    }
}
