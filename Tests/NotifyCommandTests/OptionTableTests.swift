import ArgumentParser
import Foundation
import Testing
@testable import NotifyCLI

/// `NotifyOption`'s table is the one description of `notify`'s options: swift-argument-parser's
/// properties in `NotifyCommand` must declare exactly its options, and the fast path must read
/// every one of them as swift-argument-parser does.
@Suite("notify: the table of options is what both parsers read")
struct OptionTableTests {
    /// An option or flag as swift-argument-parser describes it (`--experimental-dump-help`).
    struct DeclaredArgument: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }

        let kind: String
        let names: [Name]?
        let valueName: String?
        let abstract: String?
        let isRepeating: Bool
    }

    private struct Tool: Decodable {
        struct Command: Decodable {
            let arguments: [DeclaredArgument]
        }

        let command: Command
    }

    /// The options and flags `NotifyCommand` declares, without help's own.
    static func declared() throws -> [DeclaredArgument] {
        let tool = try JSONDecoder().decode(Tool.self, from: Data(NotifyCommand._dumpHelp().utf8))
        return tool.command.arguments.filter { argument in
            argument.kind != "positional" && !(argument.names ?? []).contains { $0.kind == "long" && $0.name == "help" }
        }
    }

    @Test("NotifyCommand declares exactly the table's options, with its names, kinds, value names and help, in its order")
    func declarationsMatchTheTable() throws {
        let declared = try Self.declared()
        let table = NotifyOption.allCases.map(\.specification)
        #expect(declared.count == table.count)
        for (argument, option) in zip(declared, table) {
            let names = (argument.names ?? []).map { $0.kind == "short" ? "-\($0.name)" : "--\($0.name)" }
            #expect(names == option.spellings)
            #expect(argument.kind == (option.takesValue ? "option" : "flag"), "\(option.long)")
            if option.takesValue { #expect(argument.valueName == option.valueName, "\(option.long)") }
            #expect(argument.abstract == option.help, "\(option.long)")
            let repeats = if case .texts = option.destination { true } else { false }
            #expect(argument.isRepeating == repeats, "\(option.long)")
        }
    }

    @Test("no two options share a spelling")
    func spellingsAreUnique() {
        let spellings = NotifyOption.allCases.flatMap(\.specification.spellings)
        #expect(Set(spellings).count == spellings.count)
    }

    /// A value that reads as `option`'s type, different from its default.
    static func sample(for option: OptionSpecification) -> String {
        switch option.destination {
        case .integer: "42"
        case .seconds: "2.5"
        case .flag, .text, .texts, .schedule: "a value"
        }
    }

    /// `option` given in each way the fast path reads it, before a summary.
    static func commandLines(for option: OptionSpecification) -> [[String]] {
        guard option.takesValue else { return option.spellings.map { [$0, "summary"] } }
        let value = sample(for: option)
        return option.spellings.map { [$0, value, "summary"] } + [["--\(option.long)=\(value)", "summary"]]
    }

    @Test("every option the fast path reads, in every spelling, reads as swift-argument-parser reads it, and is read",
          arguments: NotifyOption.allCases.filter {
              if case .schedule = $0.specification.destination { false } else { true }
          })
    func fastPathAgrees(_ option: NotifyOption) throws {
        for arguments in Self.commandLines(for: option.specification) {
            let quick = try #require(QuickArguments.parse(arguments), "the fast path should read \(arguments)")
            let reference = try #require(QuickArgumentsTests.reference(arguments), "swift-argument-parser refused \(arguments)")
            #expect(quick == reference, "\(arguments)")
            #expect(quick != NotifyOptions(text: ["summary"]), "\(arguments) changed nothing")
        }
    }

    @Test("the scheduling options are left to swift-argument-parser, which reads them",
          arguments: NotifyOption.allCases.filter {
              if case .schedule = $0.specification.destination { true } else { false }
          })
    func schedulingIsLeftToArgumentParser(_ option: NotifyOption) throws {
        for arguments in Self.commandLines(for: option.specification) {
            #expect(QuickArguments.parse(arguments) == nil, "\(arguments)")
            #expect(try NotifyCommand.parseAsRoot(arguments) is NotifyCommand, "\(arguments)")
        }
    }
}
