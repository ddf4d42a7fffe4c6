import Foundation
import Testing
@testable import UserNotifications

@Suite("Localized formats: each directive gets its argument in the form it asks for")
struct LocalizedFormatTests {
    func format(_ format: String, _ arguments: [Any]) -> String {
        LocalizedFormat.format(format, arguments: arguments.map(DeferredLocalization.Argument.init))
    }

    @Test("%@ prints numbers as Apple's object arguments do")
    func objectDirective() {
        #expect(format("%@ has %@ messages", ["Ana", 3]) == "Ana has 3 messages")
        #expect(format("%@", [NSNumber(value: 7)]) == "7")
    }

    @Test("integer and floating-point directives get numbers, also from strings")
    func numericDirectives() {
        #expect(format("%d/%ld/%u/%x", [1, 2, 3, 255]) == "1/2/3/ff")
        #expect(format("%.1f and %g", [2.25, 0.5]) == "2.2 and 0.5")
        #expect(format("%d items", ["3"]) == "3 items")
        #expect(format("%05d|%-3d|", [42, 7]) == "00042|7  |")
    }

    @Test("positional directives reorder their arguments")
    func positional() {
        #expect(format("%2$@ de %1$@", ["Ana", "Bo"]) == "Bo de Ana")
        #expect(format("%2$d, %1$@", ["x", 5]) == "5, x")
    }

    @Test("%s and %n become %@; %% stays a percent sign; missing arguments are empty or zero")
    func safety() {
        #expect(format("%s!", ["text"]) == "text!")
        #expect(format("%n|%@", ["a", "b"]) == "a|b")
        #expect(format("100%% of %@", ["it"]) == "100% of it")
        #expect(format("%@ and %@ and %d", ["one"]) == "one and  and 0")
    }

    @Test("a * width takes an integer argument")
    func starWidth() {
        #expect(format("[%*d]", [4, 7]) == "[   7]")
    }

    @Test("arguments that are neither text nor numbers print their description")
    func descriptions() {
        struct Point { let x: Int }
        #expect(format("Saw %@", [Point(x: 1)]) == "Saw Point(x: 1)")
        #expect(format("%@", [true]) == "true")
    }

    @Test("a position past the arguments, however big, gets an empty or zero value; nothing is allocated for it", arguments: [
        ("%9223372036854775807$@", ""), ("%100000000$@", ""), ("%99999999999999999999$@", ""), ("%0$@", ""), ("%65$d", "0"),
    ])
    func hugePosition(directive: String, shown: String) {
        #expect(format("[\(directive)] %1$@", ["kept"]) == "[\(shown)] kept")
    }

    @Test("positions may skip arguments, whatever their types, and repeat")
    func skippedPositions() {
        #expect(format("%3$@ %1$@", [5, "b", "c"]) == "c 5")
        #expect(format("%2$@", [3, "x"]) == "x")
        #expect(format("%1$@|%64$@|%3$d", ["a"]) == "a||0")
        #expect(format("%1$@-%1$@ %2$d", ["a", 2]) == "a-a 2")
    }

    @Test("widths and precisions, written or taken by *, are capped at the bound", arguments: [
        ("%2147483647d", ["1"]), ("%.999999999f", ["1.5"]), ("%*d", ["1000000000", "7"]), ("%99999999999999999999@", ["x"]),
        ("%*d", ["\(Int.min)", "7"]),
    ])
    func hugeWidth(format text: String, arguments: [String]) {
        #expect(format(text, arguments).utf8.count <= LocalizedFormat.maximumWidth + 32)
    }

    @Test("a percent sign with flags or a `*` between (`%*%`, `%-5%`) is a literal percent and takes no value (fuzz: format case 2016 crashed)")
    func literalPercentWithFlags() {
        #expect(format("%*%@d|%@", ["4", "name"]) == "%@d|4")
        #expect(format("%-5%|%d", [7]) == "%|7")
        #expect(format("%1$*%|%@", ["a"]) == "%|a")
    }

    @Test("the grouping flag (%'d) is dropped, and the directives after it get their own values (fuzz: format case 8911 crashed)")
    func groupingFlag() {
        #expect(format("%'d %@", [5, "x"]) == "5 x")
        #expect(format("%'d%S", [1234, "wide"]) == "1234wide")
    }

    @Test("a directive that does not follow the grammar, or comes past the directive limit, is printed as it stands (fuzz: %hh3.1 trapped, 5,000 %d crashed)")
    func malformedAndTooMany() {
        #expect(format("%hh3.14 and %", [1]) == "%hh3.14 and %")
        #expect(format("100%! sure %k", []) == "100%! sure %k")
        let many = String(repeating: "%d", count: 5_000)
        let filled = format(many, [7])
        #expect(filled.hasPrefix("7" + String(repeating: "0", count: LocalizedFormat.maximumDirectives - 1) + "%d"))
        #expect(filled.utf8.count == LocalizedFormat.maximumDirectives + 2 * (5_000 - LocalizedFormat.maximumDirectives))
    }
}
