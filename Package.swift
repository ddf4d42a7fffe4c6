// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "DesktopNotifications",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "FreedesktopNotifications", targets: ["FreedesktopNotifications"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        // A minimal subset of Apple's CoreLocation (coordinates and regions), for location
        // triggers; Linux only (on Apple platforms the system framework has this name).
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        .library(name: "UserNotificationsTesting", targets: ["UserNotificationsTesting"]),
        .executable(name: "notify", targets: ["notify"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // Web Push decryption (RFC 8291): P-256 key agreement, HKDF-SHA256, AES-128-GCM.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation` (make docs): DocC for the library products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The D-Bus interfaces described once, in dbus/*.xml: the build-tool plugin runs the
        // generator on the files dbus/targets.conf assigns to each target that applies it, and
        // the target gets each interface's name, introspection text and member signatures.
        .target(name: "DBusInterfaceCodegen", swiftSettings: strict),
        .executableTarget(name: "dbus-interface-generator", dependencies: ["DBusInterfaceCodegen"], swiftSettings: strict),
        .plugin(name: "DBusInterfaces", capability: .buildTool(), dependencies: ["dbus-interface-generator"]),
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // notify's one call into libdispatch that no public header declares: open the main
        // queue's wake-up descriptor before anything else (NotifyCLI's DescriptorFloor).
        .target(name: "CDispatchMainQueue"),
        // Plumbing shared by this package's modules (a lock, one timer for many deadlines,
        // the private bus, the loggers), `package` access only: not a product.
        .target(
            name: "DesktopNotificationsSupport",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "DBus",
            dependencies: ["CDBus", "DesktopNotificationsSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "FreedesktopNotifications", dependencies: ["DBus", "DesktopNotificationsSupport"], swiftSettings: strict,
            plugins: ["DBusInterfaces"]
        ),
        .target(name: "CoreLocation", swiftSettings: strict),
        .target(
            name: "UserNotifications",
            dependencies: [
                "CoreLocation", "FreedesktopNotifications", "DesktopNotificationsSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict,
            plugins: ["DBusInterfaces"]
        ),
        // The per-user agent (`notify agent`): one engine per app id behind
        // org.desktopnotifications.Agent1, desktop entries, launching an app for a response,
        // and telling which app a D-Bus caller is. `package` access only: not a product yet.
        .target(
            name: "NotificationAgent",
            dependencies: [
                "DBus", "DesktopNotificationsSupport", "FreedesktopNotifications", "UserNotifications",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "UserNotificationsTesting",
            dependencies: [
                "CoreLocation", "DBus", "DesktopNotificationsSupport", "FreedesktopNotifications", "UserNotifications",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            // org.freedesktop.impl.portal.Notification, which only its fake portal backend serves.
            plugins: ["DBusInterfaces"]
        ),
        .target(
            name: "ExampleSupport",
            dependencies: ["DBus", "DesktopNotificationsSupport", "FreedesktopNotifications", "UserNotifications"],
            path: "examples/Shared",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SaySomething",
            dependencies: ["UserNotifications", "ExampleSupport"],
            path: "examples/SaySomething",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Reminders",
            dependencies: ["UserNotifications", "ExampleSupport"],
            path: "examples/Reminders",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "RemindMeLater",
            dependencies: ["UserNotifications"],
            path: "examples/RemindMeLater",
            exclude: ["demo-agent.sh"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "UpdateAndWithdraw",
            dependencies: ["UserNotifications", "ExampleSupport"],
            path: "examples/UpdateAndWithdraw",
            swiftSettings: strict
        ),
        // The command's code, a library so that the tests and the fuzz harness can reach its
        // parsers; `notify` is its main.swift alone.
        .target(
            name: "NotifyCLI",
            dependencies: [
                "CDBus", "CDispatchMainQueue", "DBus", "DesktopNotificationsSupport", "FreedesktopNotifications", "NotificationAgent",
                "UserNotifications", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "notify",
            dependencies: [
                "NotifyCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The README's "Use it" example, word for word (a test compares the two).
        .executableTarget(
            name: "UseIt",
            dependencies: ["UserNotifications"],
            path: "examples/UseIt",
            swiftSettings: strict
        ),
        // Posts through the notification portal when the sandbox check says so (a test points the
        // check at a file of its own and runs it against the real xdg-desktop-portal frontend).
        .executableTarget(
            name: "PortalNotice",
            dependencies: ["UserNotifications"],
            path: "examples/PortalNotice",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "RichMedia",
            dependencies: ["UserNotifications", "ExampleSupport"],
            path: "examples/RichMedia",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "notify-bench",
            dependencies: ["DBus", "FreedesktopNotifications", "UserNotifications", "UserNotificationsTesting"],
            path: "Benchmarks/NotifyBench",
            swiftSettings: strict
        ),
        // make gallery: seed 000's notification on each real desktop, as pictures (docs/gallery).
        .executableTarget(
            name: "notify-gallery",
            dependencies: ["UserNotificationsTesting"],
            path: "Tests/Gallery",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "notify-fuzz",
            dependencies: [
                "CDBus", "DBus", "UserNotifications", "NotifyCLI", "NotificationAgent", "UserNotificationsTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/Fuzz",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "state-file-torture",
            dependencies: ["UserNotifications"],
            path: "Tests/Support/StateFileTorture",
            swiftSettings: strict
        ),
        // The app the agent launches in its tests: it records the responses its delegate gets.
        .executableTarget(
            name: "agent-test-app",
            dependencies: ["CoreLocation", "UserNotifications"],
            path: "Tests/Support/AgentTestApp",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "seed-samples-swift5",
            dependencies: ["CoreLocation", "UserNotifications"],
            path: "Tests/SeedSamplesSwift5",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Apple-platform code shapes (completion handlers with captures, delegates on a plain
        // and on a main-actor class, a service extension driven by hand, inherited
        // initialisers) that compile against Apple's SDK, so must compile here: the same files
        // in the Swift 6 language mode (AppleShapes) and, as links, in Swift 5 mode
        // (AppleShapesSwift5). In Swift 5 mode Apple's SDK gives them no warning, so there a
        // warning is an error. In Swift 6 mode it warns where Apple's does (a non-Sendable
        // capture in the handler of a `@preconcurrency` method), so there warnings are
        // suppressed and only errors count. SeedSamplesTests runs them.
        .target(
            name: "AppleShapes",
            dependencies: ["UserNotifications"],
            path: "Tests/AppleShapes",
            swiftSettings: strict + [.unsafeFlags(["-suppress-warnings"])]
        ),
        .target(
            name: "AppleShapesSwift5",
            dependencies: ["UserNotifications"],
            path: "Tests/AppleShapesSwift5",
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(
            name: "DBusInterfaceCodegenTests",
            dependencies: ["DBusInterfaceCodegen", "dbus-interface-generator", "UserNotificationsTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SupportTests",
            dependencies: ["DesktopNotificationsSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DBusTests",
            dependencies: ["CDBus", "DBus", "DesktopNotificationsSupport", "UserNotificationsTesting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "UserNotificationsTests",
            dependencies: [
                "CoreLocation", "UserNotifications", "DesktopNotificationsSupport", "UserNotificationsTesting", "PortalNotice", "agent-test-app",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SeedSamplesTests",
            dependencies: ["AppleShapes", "AppleShapesSwift5", "CoreLocation", "UserNotifications", "UserNotificationsTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NotifyCommandTests",
            dependencies: ["notify", "NotifyCLI", "DesktopNotificationsSupport", "FreedesktopNotifications", "UserNotificationsTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NotificationAgentTests",
            dependencies: ["CoreLocation", "notify", "agent-test-app", "RemindMeLater", "NotificationAgent", "DBus", "DesktopNotificationsSupport", "UserNotifications", "UserNotificationsTesting",
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["FreedesktopNotifications", "DesktopNotificationsSupport", "UserNotificationsTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FreedesktopNotificationsTests",
            dependencies: ["FreedesktopNotifications", "DesktopNotificationsSupport", "UserNotificationsTesting"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
