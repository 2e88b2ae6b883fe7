import CardReports
import ProfileLanguage

/// Runs the steps of one technology over a ``CardSession``. The engine owns the order of
/// steps, detection and the report; a runner only knows how its kind of step talks to a card.
/// Adding a technology is a new runner and a new step parser, nothing in the others.
protocol StepRunner: AnyObject {
    /// Runs `step` (whose action is this runner's technology). A card that has no such file,
    /// service or system gives a ``StepResult`` with a `refusal`, never an error: whether
    /// that ends the read is the engine's decision. Transport failures, and answers that do
    /// not check out, throw.
    func run(_ step: Step, in profile: Profile) throws(ReadError) -> StepResult

    /// The profile variant the card is (see ``Profile/variants``), when this technology can tell.
    func identifyVariant(_ profile: Profile) throws(ReadError) -> String?
}

/// What a step got: its answer (what was collected, also when the card stopped it early) and,
/// when the card refused, why.
struct StepResult {
    var answer: Answer
    var refusal: Absence?
    /// The command the card refused, as an error message shows it. Described only when a
    /// message needs it: a detection tries many profiles and their refused commands are never
    /// shown (formatting each was a tenth of a detected replay's time).
    var command: (() -> String)?
    /// The transport failed after `answer` was partly collected (records read before the
    /// card was removed): the answer is kept, then the read ends with this error.
    var interrupted: ReadError?

    static func answered(_ answer: Answer) -> StepResult { StepResult(answer: answer, refusal: nil, command: nil, interrupted: nil) }
    static func refused(_ why: Absence, keeping answer: Answer? = nil) -> StepResult {
        StepResult(answer: answer ?? .absent(why), refusal: why, command: nil, interrupted: nil)
    }
}

extension StepRunner {
    func identifyVariant(_ profile: Profile) throws(ReadError) -> String? { nil }
}
