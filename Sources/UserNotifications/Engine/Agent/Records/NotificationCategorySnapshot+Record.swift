import DBus
import Foundation

// Categories as the agent's interface carries them (`SetCategories`, `Categories`):
//
// category: identifier s (required), actions aa{sv}, intentIdentifiers as, options u,
//           hiddenPreviewsBodyPlaceholder s, categorySummaryFormat s
// action:   identifier s (required), title s, options u, icon a{sv} (template or system s),
//           textInputButtonTitle s, textInputPlaceholder s (either makes it a text-input action:
//           textInput b says so when both are empty)

extension NotificationCategorySnapshot {
    static let recordKeys: Set<String> = [
        "identifier", "actions", "intentIdentifiers", "options", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat",
    ]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("identifier", identifier)
        record.set("actions", records: actions.map(\.record))
        if !intentIdentifiers.isEmpty { record.set("intentIdentifiers", intentIdentifiers) }
        if options != 0 { record.set("options", UInt32(clamping: options)) }
        record.set("hiddenPreviewsBodyPlaceholder", nonEmpty: hiddenPreviewsBodyPlaceholder)
        record.set("categorySummaryFormat", nonEmpty: categorySummaryFormat)
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        identifier = try record.required("identifier")
        actions = try record.records("actions", keys: NotificationActionSnapshot.recordKeys) { (action) throws(NotificationAgentError) in
            try NotificationActionSnapshot(record: action)
        }
        intentIdentifiers = try record.value("intentIdentifiers", or: [])
        options = UInt(try record.value("options", or: UInt32(0)))
        hiddenPreviewsBodyPlaceholder = try record.value("hiddenPreviewsBodyPlaceholder", or: "")
        categorySummaryFormat = try record.value("categorySummaryFormat", or: "")
    }
}

extension NotificationCategorySnapshot {
    /// `categories` with one of each identifier, sorted by identifier: the list the agent's
    /// records carry, written and read. Of several sharing an identifier (a `Set` holds two
    /// unequal categories of one identifier, and the center keeps one of them), the one kept is
    /// the first by its JSON with sorted keys, a total order, so that the app's set, whose
    /// order changes from one process to the next, gives the same list in the app and in the
    /// agent, and the agent keeps the same one whatever order a record lists them in.
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` should a tied category not
    ///   encode to JSON (all its fields are strings and integers, which always do).
    static func oneOfEachIdentifier(_ categories: [NotificationCategorySnapshot]) throws(NotificationAgentError) -> [NotificationCategorySnapshot] {
        var kept: [NotificationCategorySnapshot] = []
        for (_, tied) in Dictionary(grouping: categories, by: \.identifier).sorted(by: { $0.key < $1.key }) {
            kept.append(try first(of: tied) { $0 })
        }
        return kept
    }

    /// Of `tied`, categories (or what stands for them) sharing one identifier, the first by
    /// the JSON of its snapshot with sorted keys: the total order ``oneOfEachIdentifier(_:)``
    /// keeps one by. `tied` must not be empty.
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` should a category not encode
    ///   to JSON (all its fields are strings and integers, which always do).
    static func first<Tied>(of tied: [Tied], snapshot: (Tied) -> NotificationCategorySnapshot) throws(NotificationAgentError) -> Tied {
        guard tied.count > 1 else { return tied[0] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var first: (category: Tied, json: Data)?
        for category in tied {
            let snapshot = snapshot(category)
            let json: Data
            do {
                json = try encoder.encode(snapshot)
            } catch {
                throw .invalidArgument("a category \(String(reflecting: snapshot.identifier)) cannot be ordered: \(error)")
            }
            if first.map({ json.lexicographicallyPrecedes($0.json) }) ?? true { first = (category, json) }
        }
        return first?.category ?? tied[0]
    }
}

extension NotificationActionSnapshot {
    static let recordKeys: Set<String> = ["identifier", "title", "options", "icon", "textInput", "textInputButtonTitle", "textInputPlaceholder"]
    private static let iconKeys: Set<String> = ["template", "system"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("identifier", identifier)
        record.set("title", nonEmpty: title)
        if options != 0 { record.set("options", UInt32(clamping: options)) }
        if let icon {
            var fields = AgentRecordWriter()
            switch icon {
            case .template(let name): fields.set("template", name)
            case .system(let name): fields.set("system", name)
            }
            record.set("icon", record: fields)
        }
        if let textInput {
            record.set("textInput", true)
            record.set("textInputButtonTitle", nonEmpty: textInput.buttonTitle)
            record.set("textInputPlaceholder", nonEmpty: textInput.placeholder)
        }
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        identifier = try record.required("identifier")
        title = try record.value("title", or: "")
        options = UInt(try record.value("options", or: UInt32(0)))
        if let fields = try record.record("icon", keys: Self.iconKeys) {
            switch (try fields.optional("template", as: String.self), try fields.optional("system", as: String.self)) {
            case (let name?, nil): icon = .template(imageName: name)
            case (nil, let name?): icon = .system(imageName: name)
            default: throw .invalidArgument("\(fields.path) names not exactly one of template and system")
            }
        } else {
            icon = nil
        }
        let buttonTitle = try record.optional("textInputButtonTitle", as: String.self)
        let placeholder = try record.optional("textInputPlaceholder", as: String.self)
        if try record.value("textInput", or: false) || buttonTitle != nil || placeholder != nil {
            textInput = TextInput(buttonTitle: buttonTitle ?? "", placeholder: placeholder ?? "")
        } else {
            textInput = nil
        }
    }
}
