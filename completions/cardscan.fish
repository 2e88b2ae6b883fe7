# fish completion for cardscan: the candidates come from `cardscan __complete` (the command's
# own options, profile ids, readers), so they are always those of the cardscan installed.
function __cardscan_complete
    set -l words (commandline -opc)[2..-1] (commandline -ct)
    for line in (cardscan __complete $words 2>/dev/null)
        if test "$line" = __files__
            __fish_complete_path (commandline -ct)
        else
            echo $line
        end
    end
end
complete -c cardscan -f -a '(__cardscan_complete)'
