// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ReplyKit",
  // Synchronization's Mutex (ReplyMarkdown, the CLI) needs macOS 15 / iOS 18 and their peers;
  // Observation (ChatEngine) needs macOS 14 / iOS 17; ChatThread's main-actor `isolated deinit`
  // is back-deployed by the Swift 6.2 compiler, so it adds nothing.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ReplyMarkdown", targets: ["ReplyMarkdown"]),
    .library(name: "ReplyHighlight", targets: ["ReplyHighlight"]),
    .library(name: "ChatEngine", targets: ["ChatEngine"]),
    .library(name: "ChatModels", targets: ["ChatModels"]),
    .library(name: "ChatExport", targets: ["ChatExport"]),
    .executable(name: "replykit", targets: ["replykit"]),
    .executable(name: "replykit-bench", targets: ["replykit-bench"]),
  ],
  targets: [
    .systemLibrary(
      name: "CCmarkGFM",
      pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]
    ),
    // No pkgConfig here: libutf8proc.pc adds -DUTF8PROC_EXPORTS, which SwiftPM rejects with a warning.
    .systemLibrary(name: "CUTF8Proc", providers: [.apt(["libutf8proc-dev"]), .brew(["utf8proc"])]),
    .target(name: "ReplyMarkdown", dependencies: ["CCmarkGFM", "CUTF8Proc"]),
    // KSyntaxHighlighting and Qt 5 (Core, and Gui for QColor) have no usable pkg-config file (KF5 ships none; Qt5Core.pc adds
    // -DQT_CORE_LIB, which SwiftPM rejects with a warning), so the module names the libraries and
    // the shim finds Qt's multiarch headers through the links in SystemHeaders/.
    .systemLibrary(
      name: "CKF5SyntaxHighlighting",
      providers: [.apt(["libkf5syntaxhighlighting-dev"]), .brew(["ksyntaxhighlighting"])]
    ),
    .target(
      name: "CKSyntaxHighlighting",
      dependencies: ["CKF5SyntaxHighlighting"],
      exclude: ["SystemHeaders"],
      cxxSettings: [
        .headerSearchPath("SystemHeaders/qt5-x86_64-linux-gnu"),
        .headerSearchPath("SystemHeaders/qt5-x86_64-linux-gnu/QtCore"),
        .headerSearchPath("SystemHeaders/qt5-x86_64-linux-gnu/QtGui"),
        .headerSearchPath("SystemHeaders/qt5-aarch64-linux-gnu"),
        .headerSearchPath("SystemHeaders/qt5-aarch64-linux-gnu/QtCore"),
        .headerSearchPath("SystemHeaders/qt5-aarch64-linux-gnu/QtGui"),
      ],
      linkerSettings: [.linkedLibrary("KF5SyntaxHighlighting"), .linkedLibrary("Qt5Gui"), .linkedLibrary("Qt5Core")]
    ),
    .target(name: "ReplyHighlight", dependencies: ["ReplyMarkdown", "CKSyntaxHighlighting"]),
    .target(name: "ChatEngine", dependencies: ["ReplyMarkdown"]),
    .target(name: "ChatModels", dependencies: ["ChatEngine"]),
    .target(name: "ChatExport", dependencies: ["ChatEngine", "ReplyMarkdown"]),
    .target(name: "ReplyKitFuzz", dependencies: ["ReplyMarkdown"]),
    .executableTarget(
      name: "replykit",
      dependencies: ["ReplyMarkdown", "ReplyHighlight", "ChatEngine", "ChatExport", "ChatModels", "ReplyKitFuzz"]),
    .executableTarget(
      name: "replykit-bench", dependencies: ["ReplyMarkdown", "ReplyHighlight", "ChatEngine", "ReplyKitFuzz"],
      path: "Benchmarks/replykit-bench"),
    .testTarget(name: "ReplyMarkdownTests", dependencies: ["ReplyMarkdown", "ReplyKitFuzz", "ReplyKitTestSupport"]),
    .testTarget(name: "ReplyHighlightTests", dependencies: ["ReplyHighlight", "ReplyMarkdown"]),
    .testTarget(name: "ChatEngineTests", dependencies: ["ChatEngine", "ReplyMarkdown", "ReplyKitTestSupport"]),
    .testTarget(name: "ChatExportTests", dependencies: ["ChatExport", "ChatEngine", "ReplyMarkdown"]),
    // The local model server the model tests (library and chat) run real HTTP against.
    .target(name: "ReplyKitTestSupport", path: "Tests/Support"),
    .testTarget(name: "ChatModelsTests", dependencies: ["ChatModels", "ChatEngine", "ReplyKitTestSupport"]),
    .testTarget(
      name: "ReplyKitCLITests",
      dependencies: ["ReplyMarkdown", "ChatEngine", "ChatExport", "replykit", "ReplyKitTestSupport"]),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)
