import Foundation
import Testing

extension SeedSamplesTests {
    /// `Architecture.md`'s hop lists ("The paths, hop by hop") name each boundary with its file
    /// and line. A change above a cited line moves it, and nothing else notices: each entry's
    /// line must still declare what the entry names.
    @Suite("Architecture.md's hop lists point at the code they name")
    struct ArchitecturePaths {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// One numbered entry of a hop list: what it names (the text before its file), the
        /// file's name and the line.
        struct Entry: CustomStringConvertible {
            let head: String
            let file: String
            let line: Int
            var description: String { "\(head.prefix(70)) — \(file):\(line)" }
        }

        /// The entries that cite a file and line: `N. <names> — `File.swift:L` — …`, possibly
        /// over several indented lines.
        static func entries(of text: String) -> [Entry] {
            var blocks: [String] = []
            var current: String?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.first?.isNumber == true, line.contains(". ") {
                    if let current { blocks.append(current) }
                    current = String(line)
                } else if current != nil, line.hasPrefix("   ") {
                    current! += " " + line.trimmingCharacters(in: .whitespaces)
                } else {
                    if let current { blocks.append(current) }
                    current = nil
                }
            }
            if let current { blocks.append(current) }
            return blocks.compactMap { block in
                guard let match = block.firstMatch(of: /`([A-Za-z+]+\.swift):([0-9]+)`/), let line = Int(match.2) else { return nil }
                return Entry(head: String(block[..<match.range.lowerBound]), file: String(match.1), line: line)
            }
        }

        /// Whether `source` (the cited line) declares what `head` names: a closure's line opens
        /// it; `Type.name(…)` is declared there as a function, property or initializer.
        static func declares(_ source: String, _ head: String) -> Bool {
            if head.contains("closure") { return source.contains("{") }
            guard let named = head.firstMatch(of: /`([A-Za-z_.]+?)[?]?[(`]/) else { return false }
            let name = String(named.1.split(separator: ".").last ?? "")
            if name == "init" { return source.contains("init") }
            return source.contains("func \(name)") || source.contains("var \(name)") || source.contains("let \(name)")
        }

        @Test("every cited line declares the function, initializer or closure its entry names")
        func citedLinesDeclareTheirEntries() throws {
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("Sources/UserNotifications/UserNotifications.docc/Architecture.md"),
                encoding: .utf8)
            let entries = Self.entries(of: text)
            #expect(entries.count > 100, "the hop lists were not found")
            var sources: [String: [URL]] = [:]
            let walker = try #require(FileManager.default.enumerator(at: Self.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "swift" {
                sources[url.lastPathComponent, default: []].append(url)
            }
            for entry in entries {
                let found = sources[entry.file] ?? []
                try #require(found.count == 1, "\(found.count) files named \(entry.file): \(entry)")
                let url = found[0]
                let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                let source = entry.line <= lines.count ? String(lines[entry.line - 1]) : ""
                #expect(Self.declares(source, entry.head), "\(entry) holds: \(source.trimmingCharacters(in: .whitespaces))")
            }
        }

        @Test("the check tells a moved line from a right one")
        func theCheckCanFail() {
            #expect(Self.declares("    func drain() async {", "9. `EngineCore.drain()` — "))
            #expect(!Self.declares("    }", "9. `EngineCore.drain()` — "))
            #expect(!Self.declares("    func submit(_ input: EngineInput) {", "9. `EngineCore.drain()` — "))
            #expect(Self.declares("    init?(signal: DBusMessage) {", "11. `NotificationEvent.init?(signal:)` — "))
            #expect(Self.declares("        Task { await self.drain() }", "23. closure of that task — "))
            #expect(!Self.declares("    /// Drains.", "23. closure of that task — "))
            let entries = Self.entries(of: "1. `A.b()` — `A.swift:3` — does\n   more.\n2. closure in `A.b()` —\n   `A.swift:5` — opens.\n\nText.")
            #expect(entries.map(\.line) == [3, 5])
        }
    }
}
