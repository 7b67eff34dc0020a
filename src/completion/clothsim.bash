# bash completion for clothsim: commands, options, scenes (from
# `clothsim scenes`), --set keys (from `clothsim params`) and lesson files.
# Installed by `make install` as $(PREFIX)/share/bash-completion/completions/clothsim.

_clothsim_scenes() {
    "$1" scenes 2>/dev/null | awk '/^[^ ]/ { print $1 }'
}

_clothsim_keys() {
    # the KEY column of the table, after its header line
    "$1" params 2>/dev/null | awk 'seen && /^[^ ]/ { print $1 } $1 == "KEY" { seen = 1 }'
}

# The values a --set key takes, from the RANGE column of `clothsim params`
# where it lists them (a|b|c, on the key's line or the next).
_clothsim_values() {
    "$1" params 2>/dev/null | awk -v key="$2" '
        found { if ($1 ~ /[|]/) print $1; exit }
        $1 == key { for (i = 2; i <= NF; i++) if ($i ~ /[|]/) { print $i; exit }; found = 1 }' | tr '|' ' '
}

_clothsim() {
    local cur prev bin command word
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    bin=${COMP_WORDS[0]}
    command=
    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        case $word in
        run | params | scenes | learn | check | bench | progress | handout | class) command=$word; break ;;
        *.lesson) command=learn; break ;; # a lesson to play takes learn's options
        esac
    done

    # bash splits "--set integrator=ve" and "--background=l" at the "="
    if [[ $prev == = && COMP_CWORD -ge 3 ]]; then
        local key=${COMP_WORDS[COMP_CWORD - 2]} option=${COMP_WORDS[COMP_CWORD - 3]}
        case $key in
        --background) COMPREPLY=($(compgen -W "dark light auto" -- "$cur")); return ;;
        --mode) COMPREPLY=($(compgen -W "shaded wire strain points" -- "$cur")); return ;;
        --scene) COMPREPLY=($(compgen -W "$(_clothsim_scenes "$bin")" -- "$cur")); return ;;
        esac
        if [[ $option == --set ]]; then
            COMPREPLY=($(compgen -W "$(_clothsim_values "$bin" "$key")" -- "$cur"))
            return
        fi
    fi

    case $prev in
    --scene)
        COMPREPLY=($(compgen -W "$(_clothsim_scenes "$bin")" -- "$cur"))
        return ;;
    --set | --compare)
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -S = -W "$(_clothsim_keys "$bin")" -- "$cur"))
        return ;;
    --dir)
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    --db)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    --group)
        COMPREPLY=($(compgen -g -- "$cur"))
        return ;;
    --code)
        return ;;
    --record | --dump | -o | --output)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    --csv)
        if [[ $command != progress ]]; then # progress --csv takes no file
            COMPREPLY=($(compgen -f -- "$cur"))
            return
        fi ;;
    --preset)
        COMPREPLY=($(compgen -W "euler-verlet iterations tearing" -- "$cur"))
        return ;;
    --mode)
        COMPREPLY=($(compgen -W "shaded wire strain points" -- "$cur"))
        return ;;
    --background)
        COMPREPLY=($(compgen -W "dark light auto" -- "$cur"))
        return ;;
    --fps | --steps | --seconds | --every | --size)
        return ;;
    esac

    local options
    case $command in
    run) options="--scene --set --steps --seconds --every --csv --dump --frames --size --mode --ascii --help" ;;
    params) options="--scene --help" ;;
    check) options="--run --verbose --tap --help" ;;
    bench) options="--quick --levels --json --reps --help" ;;
    scenes) options="--help" ;;
    progress) options="--csv --answers --help" ;;
    handout) options="--teacher --class -o --help" ;;
    class) options="--dir --group --code --db --serve --csv --ascii --fps --high-contrast --background --help" ;;
    learn) options="--ascii --fps --high-contrast --background --stats --record --teacher --help" ;;
    *) options="--scene --set --compare --preset --ascii --fps --high-contrast --background --stats --record --help --version" ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ -z $command ]]; then
        # a command, or a lesson file to play
        COMPREPLY=($(compgen -W "run params scenes learn check bench progress handout class" -- "$cur"))
        COMPREPLY+=($(compgen -f -X '!*.lesson' -- "$cur") $(compgen -d -- "$cur"))
    elif [[ $command == class && $prev == class ]]; then
        COMPREPLY=($(compgen -W "start resume join teach present watch report" -- "$cur"))
    elif [[ $command == class && $prev == start ]]; then
        COMPREPLY=($(compgen -f -X '!*.lesson' -- "$cur") $(compgen -d -- "$cur"))
    elif [[ $command == check || $command == handout ]]; then
        COMPREPLY=($(compgen -f -X '!*.lesson' -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -F _clothsim clothsim
