# 2.º projeto de FP: 2048 (um exemplo de aluno, para os testes do
# Tabuleiro), com uma estrategia propria que o Tabuleiro pode jogar:
#
#   escolhe_direcao(t): a primeira de 'N', 'W', 'E', 'S' que muda o tabuleiro.
#
# Representacoes internas:
#   coordenada: tuplo (linha, coluna), de 1 a 4
#   tabuleiro:  dicionario {'casas': lista de 4 listas de 4 inteiros, 'pontuacao': inteiro}


def cria_coordenada(l, c):
    if not (type(l) == int and type(c) == int and 1 <= l <= 4 and 1 <= c <= 4):
        raise ValueError('cria_coordenada: argumentos invalidos')
    return (l, c)


def coordenada_linha(c):
    return c[0]


def coordenada_coluna(c):
    return c[1]


def e_coordenada(arg):
    return type(arg) == tuple and len(arg) == 2 and all(type(x) == int and 1 <= x <= 4 for x in arg)


def coordenadas_iguais(c1, c2):
    return c1 == c2


def cria_tabuleiro():
    return {'casas': [[0] * 4 for _ in range(4)], 'pontuacao': 0}


def copia_tabuleiro(t):
    return {'casas': [l[:] for l in t['casas']], 'pontuacao': t['pontuacao']}


def tabuleiro_posicao(t, c):
    if not e_coordenada(c):
        raise ValueError('tabuleiro_posicao: argumentos invalidos')
    return t['casas'][coordenada_linha(c) - 1][coordenada_coluna(c) - 1]


def tabuleiro_pontuacao(t):
    return t['pontuacao']


def tabuleiro_posicoes_vazias(t):
    return [cria_coordenada(l, c) for l in range(1, 5) for c in range(1, 5) if t['casas'][l - 1][c - 1] == 0]


def tabuleiro_preenche_posicao(t, c, v):
    if not e_coordenada(c) or type(v) != int:
        raise ValueError('tabuleiro_preenche_posicao: argumentos invalidos')
    t['casas'][coordenada_linha(c) - 1][coordenada_coluna(c) - 1] = v
    return t


def tabuleiro_atualiza_pontuacao(t, v):
    if type(v) != int or v < 0 or v % 4 != 0:
        raise ValueError('tabuleiro_atualiza_pontuacao: argumentos invalidos')
    t['pontuacao'] += v
    return t


def _reduz_linha(valores):
    """Junta uma linha para o seu inicio: (nova linha, pontos ganhos)."""
    cheios = [v for v in valores if v]
    res, pontos, i = [], 0, 0
    while i < len(cheios):
        if i + 1 < len(cheios) and cheios[i] == cheios[i + 1]:
            res.append(2 * cheios[i])
            pontos += 2 * cheios[i]
            i += 2
        else:
            res.append(cheios[i])
            i += 1
    return res + [0] * (4 - len(res)), pontos


def tabuleiro_reduz(t, d):
    if d not in ('N', 'S', 'E', 'W'):
        raise ValueError('tabuleiro_reduz: argumentos invalidos')
    for k in range(4):
        if d in ('W', 'E'):
            coords = [(k, c) for c in range(4)]
        else:
            coords = [(l, k) for l in range(4)]
        if d in ('E', 'S'):
            coords.reverse()
        nova, pontos = _reduz_linha([t['casas'][l][c] for l, c in coords])
        for (l, c), v in zip(coords, nova):
            t['casas'][l][c] = v
        tabuleiro_atualiza_pontuacao(t, pontos)
    return t


def e_tabuleiro(arg):
    return type(arg) == dict and set(arg) == {'casas', 'pontuacao'}


def tabuleiros_iguais(t1, t2):
    return t1 == t2


def tabuleiro_terminado(t):
    return not tabuleiro_posicoes_vazias(t) and all(
        tabuleiros_iguais(tabuleiro_reduz(copia_tabuleiro(t), d), t) for d in 'NSEW')


def escreve_tabuleiro(t):
    if not e_tabuleiro(t):
        raise ValueError('escreve_tabuleiro: argumentos invalidos')
    for l in t['casas']:
        print(' '.join('[ %d ]' % v for v in l))
    print('Pontuacao: %d' % t['pontuacao'])


def escolhe_direcao(t):
    """A estrategia: a primeira direcao que muda o tabuleiro."""
    for d in ('N', 'W', 'E', 'S'):
        if not tabuleiros_iguais(tabuleiro_reduz(copia_tabuleiro(t), d), t):
            return d
    return 'N'
