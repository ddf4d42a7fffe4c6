import Foundation

/// Fills a localized format with stored arguments, each converted to what its directive asks
/// for, so that no translation can crash the app when the text is looked up at delivery:
///
/// - `%@` (and `%s`, `%S`, `%n`, rewritten as `%@`) gets the argument's text, as Apple's
///   object arguments print (`%@` with `3` gives `"3"`);
/// - integer directives (`%d`, `%ld`, `%u`, `%x`, `%c`, ..., and `*` widths) get an integer;
/// - floating-point directives (`%f`, `%g`, `%e`, `%a`) get a `Double`;
/// - a directive past the last argument gets an empty or zero value.
///
/// Positional directives (`%2$@`) are honoured, as translations reorder them.
enum LocalizedFormat {
    private enum Need {
        case text
        case signed
        case unsigned
        case floating
    }

    static func format(_ format: String, arguments: [DeferredLocalization.Argument]) -> String {
        let (rewritten, needs) = scan(format)
        let count = max(arguments.count, (needs.keys.max() ?? -1) + 1)
        let values: [any CVarArg] = (0..<count).map { index in
            convert(index < arguments.count ? arguments[index] : nil, to: needs[index])
        }
        return String(format: rewritten, arguments: values)
    }

    /// The format with `%s`, `%S` and `%n` turned into `%@`, and what each argument index
    /// (from 0) must be.
    private static func scan(_ format: String) -> (String, [Int: Need]) {
        var output = String.UnicodeScalarView()
        var needs: [Int: Need] = [:]
        var next = 0
        var scalars = Array(format.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            output.append(scalar)
            guard scalar == "%" else { continue }
            var directive = String.UnicodeScalarView()
            var position: Int?
            var digits = ""
            while let peek = scalars.first, ("0"..."9").contains(peek) {
                digits.unicodeScalars.append(peek)
                directive.append(scalars.removeFirst())
            }
            if scalars.first == "$", let number = Int(digits), number > 0 {
                position = number - 1
                directive.append(scalars.removeFirst())
            }
            while let peek = scalars.first, "-+ #0'.123456789*hlqLzjt".unicodeScalars.contains(peek) {
                if peek == "*" {
                    needs[next] = .signed
                    next += 1
                }
                directive.append(scalars.removeFirst())
            }
            guard let conversion = scalars.popFirst() else {
                output.append(contentsOf: directive)
                break
            }
            if conversion == "%" {
                output.append(contentsOf: directive)
                output.append(conversion)
                continue
            }
            let need: Need
            switch conversion {
            case "d", "i", "c", "C": need = .signed
            case "u", "o", "x", "X", "p": need = .unsigned
            case "f", "F", "e", "E", "g", "G", "a", "A": need = .floating
            default: need = .text
            }
            let index = position ?? next
            if position == nil { next += 1 }
            needs[index] = need
            output.append(contentsOf: directive)
            output.append(need == .text ? "@" : conversion)
        }
        return (String(output), needs)
    }

    private static func convert(_ argument: DeferredLocalization.Argument?, to need: Need?) -> any CVarArg {
        switch need {
        case .text?: argument.map(text) ?? ""
        case .signed?: argument.map(signed) ?? 0
        case .unsigned?: argument.map { UInt(bitPattern: signed($0)) } ?? UInt(0)
        case .floating?: argument.map(floating) ?? 0.0
        case nil: argument?.formatArgument ?? ""
        }
    }

    private static func text(_ argument: DeferredLocalization.Argument) -> String {
        switch argument {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .unsignedInteger(let integer): String(integer)
        case .double(let double): "\(double)"
        }
    }

    private static func signed(_ argument: DeferredLocalization.Argument) -> Int {
        switch argument {
        case .string(let string): Int(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case .integer(let integer): integer
        case .unsignedInteger(let integer): Int(truncatingIfNeeded: integer)
        case .double(let double): double.isFinite ? Int(exactly: double.rounded(.towardZero)) ?? 0 : 0
        }
    }

    private static func floating(_ argument: DeferredLocalization.Argument) -> Double {
        switch argument {
        case .string(let string): Double(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case .integer(let integer): Double(integer)
        case .unsignedInteger(let integer): Double(integer)
        case .double(let double): double
        }
    }
}
