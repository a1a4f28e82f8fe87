// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ReplyKit",
  products: [
    .library(name: "ReplyMarkdown", targets: ["ReplyMarkdown"]),
    .library(name: "ChatEngine", targets: ["ChatEngine"]),
    .library(name: "ChatModels", targets: ["ChatModels"]),
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
    .target(name: "ChatEngine", dependencies: ["ReplyMarkdown"]),
    .target(name: "ChatModels", dependencies: ["ChatEngine"]),
    .target(name: "ReplyKitFuzz", dependencies: ["ReplyMarkdown"]),
    .executableTarget(
      name: "replykit", dependencies: ["ReplyMarkdown", "ChatEngine", "ChatModels", "ReplyKitFuzz"]),
    .executableTarget(
      name: "replykit-bench", dependencies: ["ReplyMarkdown", "ChatEngine", "ReplyKitFuzz"], path: "Benchmarks/replykit-bench"),
    .testTarget(name: "ReplyMarkdownTests", dependencies: ["ReplyMarkdown", "ReplyKitFuzz"]),
    .testTarget(name: "ChatEngineTests", dependencies: ["ChatEngine", "ReplyMarkdown"]),
    .testTarget(name: "ChatModelsTests", dependencies: ["ChatModels", "ChatEngine"]),
    .testTarget(name: "ReplyKitCLITests", dependencies: ["ReplyMarkdown", "ChatEngine"]),
  ],
  swiftLanguageModes: [.v6]
)
