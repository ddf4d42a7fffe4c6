extension ExecCommandLine {
    /// What the field codes of a command line expand to.
    package struct FieldValues: Sendable, Hashable {
        /// The files to open: `%f` takes the first, `%F` all.
        package var files: [String]
        /// The URLs to open: `%u` takes the first, `%U` all.
        package var urls: [String]
        /// The Icon key, for `%i`.
        package var icon: String?
        /// The Name key, for `%c`.
        package var name: String?
        /// The desktop entry's path, for `%k`.
        package var location: String?

        /// Values with nothing to open, as for launching an app to hand it a response.
        package init(files: [String] = [], urls: [String] = [], icon: String? = nil, name: String? = nil, location: String? = nil) {
            self.files = files
            self.urls = urls
            self.icon = icon
            self.name = name
            self.location = location
        }
    }

    /// The program and its arguments, field codes expanded: each replacement is one
    /// argument or part of one, never split at its spaces; `%F` and `%U` give one argument per
    /// item and `%i` gives `--icon` and the icon. Deprecated codes are removed.
    ///
    /// An argument made only of field codes that expand to nothing (`%f` without a file) is
    /// left out; one with text of its own stays, and `""` stays as an empty argument.
    ///
    /// `%f` and `%u` take the first item when there are several: the spec's suggestion of
    /// starting one copy per file is not followed.
    package func expanded(with values: FieldValues) -> [String] {
        var result: [String] = []
        for argument in arguments {
            if argument.pieces.count == 1, case .fieldCode(let code) = argument.pieces[0], code.expandsToSeveralArguments {
                result += Self.several(code, values)
                continue
            }
            var text = ""
            var hasText = argument.pieces.isEmpty
            for piece in argument.pieces {
                switch piece {
                case .text(let literal):
                    text += literal
                    hasText = true
                case .fieldCode(let code):
                    text += Self.single(code, values)
                }
            }
            if hasText || !text.isEmpty { result.append(text) }
        }
        return result
    }

    private static func several(_ code: ExecFieldCode, _ values: FieldValues) -> [String] {
        switch code {
        case .files: values.files
        case .urls: values.urls
        case .icon: values.icon.map { $0.isEmpty ? [] : ["--icon", $0] } ?? []
        default: [single(code, values)]
        }
    }

    private static func single(_ code: ExecFieldCode, _ values: FieldValues) -> String {
        switch code {
        case .file: values.files.first ?? ""
        case .url: values.urls.first ?? ""
        case .name: values.name ?? ""
        case .location: values.location ?? ""
        case .files, .urls, .icon, .directory, .directories, .fileName, .fileNames, .device, .miniIcon: ""
        }
    }
}
