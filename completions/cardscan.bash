# bash completion for cardscan: the candidates come from `cardscan __complete` (the command's
# own options, profile ids, readers), so they are always those of the cardscan installed.
_cardscan() {
    local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n' line files=no
    local -a words=()
    while IFS= read -r line; do
        if [[ $line == __files__ ]]; then files=yes; else words+=("$line"); fi
    done < <("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    COMPREPLY=()
    [[ ${#words[@]} -gt 0 ]] && COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
    [[ $files == yes ]] && COMPREPLY+=($(compgen -f -- "$cur"))
    # Names with spaces (readers) and files are quoted as file names are.
    compopt -o filenames 2>/dev/null
    return 0
}
complete -F _cardscan cardscan
