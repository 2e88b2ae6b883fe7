import Foundation
import LabSupport
import Testing

/// `cardscan serve` through a real HTTP client (curl) and a real browser (Debian's headless
/// Chromium through chromium-driver and Selenium), with the lab's pcscd and virtual cards.
@Suite(.serialized) struct ServeTests {
    /// A running `cardscan serve ARGS` on `port`, its history in a folder of its own.
    final class Server {
        let process: Subprocess
        let port: Int
        let output: String

        init(port: Int, _ args: [String] = []) throws {
            self.port = port
            output = NSTemporaryDirectory() + "serve-\(UUID().uuidString)"
            let out = open(output + ".out", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            let err = open(output + ".err", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
            defer {
                close(out)
                close(err)
            }
            process = try Subprocess(
                [Lab.binDir + "/cardscan", "serve", "--port", String(port)] + args,
                environment: Lab.childEnvironment(["XDG_DATA_HOME": output + "-data"]), stdout: out, stderr: err)
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline,
                (try? curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", url("/api/readers")]))?.stdout == nil
                    || (try? curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", url("/api/readers")]))?.stdout == "000"
            {
                usleep(100_000)
            }
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
        var printed: String { (try? String(contentsOfFile: output + ".out", encoding: .utf8)) ?? "" }
        func stop() { process.terminate() }
    }

    static func curl(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Lab.shell(["curl", "--max-time", "10"] + args)
    }

    /// DNS rebinding, cross-site requests and other computers are refused; every answer carries
    /// the Content-Security-Policy; there is no CORS.
    @Test func safeByDefault() throws {
        let server = try Server(port: 18765)
        defer { server.stop() }
        #expect(server.printed.hasPrefix("cardscan serve: http://127.0.0.1:18765/  (kiosk: /kiosk;"), "\(server.printed)")
        func code(_ args: [String]) throws -> String { try Self.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}"] + args).stdout }
        #expect(try code([server.url("/")]) == "200")
        #expect(try code(["-H", "Host: evil.example:18765", server.url("/")]) == "421", "a foreign Host (DNS rebinding)")
        #expect(
            try code(["-X", "POST", "-H", "Origin: http://evil.example", server.url("/api/cards/1/forget")]) == "403", "cross-origin POST")
        #expect(try code(["-X", "POST", server.url("/api/cards/1/forget")]) == "403", "a POST with no Origin")
        #expect(
            try code(["-X", "POST", "-H", "Origin: http://127.0.0.1:18765", server.url("/api/cards/1/forget")]) == "403",
            "same origin, no token")
        let headers = try Self.curl(["-s", "-D", "-", "-o", "/dev/null", "-H", "Origin: http://evil.example", server.url("/api/cards")])
            .stdout
        #expect(headers.contains("Content-Security-Policy: default-src 'self'"), "\(headers)")
        #expect(!headers.lowercased().contains("access-control-allow"), "no CORS: \(headers)")
        // The page's own token, with its own origin, is accepted (no such card: 404).
        let page = try Self.curl(["-s", server.url("/")]).stdout
        let token = try #require(
            page.range(of: #"content="[0-9a-f]{32}""#, options: .regularExpression).map { String(page[$0].dropFirst(9).dropLast()) })
        #expect(
            try code([
                "-X", "POST", "-H", "Origin: http://127.0.0.1:18765", "-H", "X-Cardscan-Token: \(token)", server.url("/api/cards/1/forget"),
            ])
                == "404")
    }

    /// Another address needs the token on every request: missing, refused; given once in the
    /// address, a cookie carries it.
    @Test func anotherAddressNeedsTheToken() throws {
        let server = try Server(port: 18767, ["--listen", "0.0.0.0", "--token", "s3cret"])
        defer { server.stop() }
        #expect(server.printed.contains("http://0.0.0.0:18767/?token=s3cret"), "\(server.printed)")
        let missing = try Self.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", server.url("/api/readers")]).stdout
        #expect(missing == "401")
        let cookies = NSTemporaryDirectory() + "serve-cookies-\(UUID().uuidString)"
        let given = try Self.curl(["-s", "-c", cookies, "-o", "/dev/null", "-w", "%{http_code}", server.url("/?token=s3cret")]).stdout
        #expect(given == "200")
        let again = try Self.curl(["-s", "-b", cookies, "-o", "/dev/null", "-w", "%{http_code}", server.url("/api/readers")]).stdout
        #expect(again == "200", "the cookie carries the token")
    }

    /// A card tapped while a client listens: the report comes as an event, and the card is in
    /// the history the API serves.
    @Test func liveEventsAndTheAPI() throws {
        try Lab.exclusive {
            let server = try Server(port: 18768)
            defer { server.stop() }
            let events = NSTemporaryDirectory() + "serve-events-\(UUID().uuidString)"
            let listener = try Lab.shell(["/bin/sh", "-c", "curl -s -N --max-time 8 \(server.url("/api/events")) > \(events) & echo $!"])
            _ = listener
            usleep(500_000)
            let card = try Lab.Card(Lab.root + "/Tests/LabCards/t-money-image.json")
            defer { card.stop() }
            let deadline = Date().addingTimeInterval(10)
            var text = ""
            while Date() < deadline, !text.contains(#""type":"report""#) {
                usleep(100_000)
                text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            }
            #expect(text.contains(#""type":"report","reader":"Virtual PCD 00 00","report":{"profile":"t-money""#), "\(text)")
            #expect(text.contains(#""balance":{"amount":12350,"currency":"KRW"}"#))
            let cards = try Self.curl(["-s", server.url("/api/cards")]).stdout
            #expect(cards.contains(#""number" : "1010030000987654""#) || cards.contains(#""number": "1010030000987654""#), "\(cards)")
            let csv = try Self.curl(["-s", server.url("/api/cards/1/trips.csv")]).stdout
            #expect(csv.hasPrefix("profile,card,time,kind,amount,currency"), "\(csv)")
        }
    }

    /// SIGTERM ends `serve` at once, with status 0, while a page's event stream is open (a
    /// graceful stop would wait for the stream to end, which it never does).
    @Test func sigtermStopsItWithAPageOpen() throws {
        try Lab.exclusive {
            let server = try Server(port: 18769)
            let listener = try Lab.shell(["/bin/sh", "-c", "curl -s -N --max-time 20 \(server.url("/api/events")) > /dev/null & echo $!"])
            defer { kill(pid_t(listener.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, SIGTERM) }
            usleep(500_000)
            let asked = Date()
            kill(server.process.pid, SIGTERM)
            let status = server.process.wait(timeout: 5)
            defer { server.stop() }
            #expect(status == 0, "serve did not stop on SIGTERM within 5 s (status \(String(describing: status)))")
            #expect(Date().timeIntervalSince(asked) < 3)
        }
    }

    /// The page in Debian's headless Chromium while the lab taps cards (scripts/serve-browser-test.py):
    /// the balance within 2 s, one chart point per read, the kiosk view clearing, a second card
    /// beside the first; screenshots in .build/test-artifacts/.
    @Test func inARealBrowser() throws {
        try Lab.exclusive {
            let server = try Server(port: 18769)
            defer { server.stop() }
            let artifacts = Lab.root + "/.build/test-artifacts"
            let r = try Lab.shell(
                ["/usr/bin/python3", Lab.root + "/scripts/serve-browser-test.py", server.url("/"), artifacts], timeout: 180)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
            #expect(FileManager.default.fileExists(atPath: artifacts + "/serve-page.png"))
            #expect(FileManager.default.fileExists(atPath: artifacts + "/serve-kiosk.png"))
        }
    }
}
