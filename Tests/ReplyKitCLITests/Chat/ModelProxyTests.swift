import Foundation
import ReplyKitTestSupport
import Testing

@testable import replykit

/// With `http_proxy` or `all_proxy` set, the key meant for a model server on this machine went in
/// plain text to the proxy (a trial: libcurl, under FoundationNetworking, reads those variables).
/// A server on this machine is now reached directly, so neither the request nor its key reaches
/// any proxy.
@Suite(.timeLimit(.minutes(1))) struct ModelProxyTests {
  @Test func aLocalServerIsNeverReachedThroughAProxy() throws {
    for variable in ["http_proxy", "all_proxy"] {
      let server = try LocalModelServer([
        [Wire.eventStreamHead] + Wire.pieces(Wire.openAIStream(["Straight ", "here"]), size: 11) + [.end]
      ])
      // Stands in for a proxy on another machine: it must see nothing.
      let proxy = try LocalModelServer([[.head(status: 502), .text("proxied"), .end]])
      // A thread that ends with the person's turn.
      let folder = try ChatWithoutTerminalTests.directory()
      defer { try? FileManager.default.removeItem(at: folder) }
      let thread = folder.appendingPathComponent("thread.json")
      let result = try CLIRunner.run(
        [
          "chat", "--model", "m", "--base-url", server.openAIBaseURL.absoluteString, "--api-key-env", "LOCAL_KEY",
          "--thread", thread.path,
        ],
        environment: [
          "XDG_CONFIG_HOME": folder.path, "LOCAL_KEY": "sk-local-secret", "NO_COLOR": "1",
          variable: "http://127.0.0.1:\(proxy.port)", "no_proxy": "example.invalid", "NO_PROXY": "",
        ])
      #expect(result.status == 0, "\(variable): \(result.stderr)")
      #expect(result.stdout.contains("Straight here"), "\(variable)")
      #expect(proxy.requests.isEmpty, "\(variable): the proxy got \(proxy.requests.map(\.headers))")
      #expect(server.requests.first?.headers["authorization"] == "Bearer sk-local-secret", "\(variable)")
    }
  }

  @Test func theBypassAddsTheLocalHostToWhatNoProxyHeld() throws {
    let local = try #require(URL(string: "http://127.0.0.1:8080/v1"))
    #expect(ModelChoice.proxyBypass(for: local, environment: [:]) == nil)
    #expect(ModelChoice.proxyBypass(for: local, environment: ["http_proxy": "http://p:3128"]) == "127.0.0.1")
    #expect(
      ModelChoice.proxyBypass(for: local, environment: ["ALL_PROXY": "socks5://p", "NO_PROXY": "a.b"])
        == "a.b,127.0.0.1")
    #expect(
      ModelChoice.proxyBypass(for: local, environment: ["https_proxy": "http://p", "no_proxy": "x", "NO_PROXY": "y"])
        == "x,127.0.0.1")
    #expect(ModelChoice.proxyBypass(for: local, environment: ["HTTP_PROXY": "http://p"]) == nil)
    let localhost = try #require(URL(string: "http://LocalHost:11434/v1"))
    #expect(ModelChoice.proxyBypass(for: localhost, environment: ["http_proxy": "http://p"]) == "localhost")
    let remote = try #require(URL(string: "https://api.openai.com/v1"))
    #expect(ModelChoice.proxyBypass(for: remote, environment: ["http_proxy": "http://p"]) == nil)
  }
}
