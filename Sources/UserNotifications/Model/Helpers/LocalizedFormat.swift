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
/// Positional directives (`%2$@`) are honoured, as translations reorder them. A format comes
/// from a payload or a translation, so Foundation never sees a position: each directive is
/// rewritten without it and handed its own value, in order. Foundation would otherwise
/// allocate for the highest position named (`%9223372036854775807$@` aborts), and read the
/// wrong argument, or an integer as an object, when a position is skipped. A position past
/// the arguments, 0, or too big for an `Int` gets an empty or zero value.
///
/// A width or precision above ``maximumWidth``, written or taken by `*`, is lowered to it:
/// `%2147483647d` would crash Foundation, and smaller ones ask for as many bytes.
enum LocalizedFormat {
    /// The widest padding and the longest precision a directive gets.
    static let maximumWidth = 1024

    private enum Need {
        case text
        case signed
        case unsigned
        case floating
        /// A `*` width or precision.
        case width
    }

    /// One value of the rewritten format: the argument it takes (`nil`: none) and its form.
    private struct Slot {
        let index: Int?
        let need: Need
    }

    static func format(_ format: String, arguments: [DeferredLocalization.Argument]) -> String {
        let (rewritten, slots) = scan(format)
        let values: [any CVarArg] = slots.map { slot in
            let argument = slot.index.flatMap { arguments.indices.contains($0) ? arguments[$0] : nil }
            return convert(argument, to: slot.need)
        }
        return String(format: rewritten, arguments: values)
    }

    /// The format with positions removed, `%s`, `%S` and `%n` turned into `%@`, widths
    /// capped, and the value each directive takes, in order.
    private static func scan(_ format: String) -> (String, [Slot]) {
        var output = String.UnicodeScalarView()
        var slots: [Slot] = []
        var next = 0
        var scalars = Array(format.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            output.append(scalar)
            guard scalar == "%" else { continue }
            let (slotsBefore, nextBefore) = (slots.count, next)
            var directive = String.UnicodeScalarView()
            var digits = String.UnicodeScalarView()
            while let peek = scalars.first, ("0"..."9").contains(peek) {
                digits.append(scalars.removeFirst())
            }
            var index: Int?
            var positioned = false
            if scalars.first == "$" {
                scalars.removeFirst()
                positioned = true
                index = Int(String(digits)).flatMap { $0 > 0 ? $0 - 1 : nil }
            } else {
                directive.append(contentsOf: cappedWidth(digits))
            }
            var width = String.UnicodeScalarView()
            while let peek = scalars.first, "-+ #0'.123456789*hlqLzjt".unicodeScalars.contains(peek) {
                if ("0"..."9").contains(peek) {
                    width.append(scalars.removeFirst())
                    continue
                }
                if peek == "*" {
                    slots.append(Slot(index: next, need: .width))
                    next += 1
                }
                directive.append(contentsOf: cappedWidth(width))
                width = String.UnicodeScalarView()
                directive.append(scalars.removeFirst())
            }
            directive.append(contentsOf: cappedWidth(width))
            guard let conversion = scalars.popFirst() else {
                output.append(contentsOf: directive)
                break
            }
            if conversion == "%" {
                // A literal percent sign takes no value, whatever flags or `*` stood between
                // (Foundation takes none for `%*%`, and every later value would be misread).
                slots.removeSubrange(slotsBefore...)
                next = nextBefore
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
            if !positioned {
                index = next
                next += 1
            }
            slots.append(Slot(index: index, need: need))
            output.append(contentsOf: directive)
            output.append(need == .text ? "@" : conversion)
        }
        return (String(output), slots)
    }

    /// A run of digits of a width or precision, lowered to ``maximumWidth`` when above it.
    private static func cappedWidth(_ digits: String.UnicodeScalarView) -> String.UnicodeScalarView {
        guard !digits.isEmpty, Int(String(digits)).map({ $0 > maximumWidth }) ?? true else { return digits }
        return "\(maximumWidth)".unicodeScalars
    }

    private static func convert(_ argument: DeferredLocalization.Argument?, to need: Need) -> any CVarArg {
        switch need {
        case .text: argument.map(text) ?? ""
        case .signed: argument.map(signed) ?? 0
        case .unsigned: argument.map { UInt(bitPattern: signed($0)) } ?? UInt(0)
        case .floating: argument.map(floating) ?? 0.0
        case .width: argument.map { min(max(signed($0), -maximumWidth), maximumWidth) } ?? 0
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
