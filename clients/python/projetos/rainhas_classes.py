# Computacao 1, trabalho final: o jogo das 8 rainhas (outro exemplo de
# aluno, para os testes do Tabuleiro). Cada tipo de peca e um objeto da
# classe Peca, que sabe que casas ataca; o tabuleiro percorre-se linha a linha.

from random import choice, sample


class Peca:
    """Um tipo de peca de xadrez: os seus movimentos e se desliza."""

    def __init__(self, letra, passos, desliza):
        self.letra, self.passos, self.desliza = letra, passos, desliza

    def ataca(self, linha, coluna, n):
        casas = set()
        for dl, dc in self.passos:
            l, c = linha + dl, coluna + dc
            while 0 <= l < n and 0 <= c < n:
                casas.add((l, c))
                if not self.desliza:
                    break
                l, c = l + dl, c + dc
        return casas


_ORT = [(1, 0), (-1, 0), (0, 1), (0, -1)]
_DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
TIPOS = {
    'R': Peca('R', _ORT + _DIAG, False),
    'D': Peca('D', _ORT + _DIAG, True),
    'T': Peca('T', _ORT, True),
    'B': Peca('B', _DIAG, True),
    'C': Peca('C', [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)], False),
}
MODALIDADES = {'tradicional': (8, 4, 4), 'grande': (20, 10, 10), 'impar': (13, 7, 6), 'ímpar': (13, 7, 6)}


def outro(jogador):
    return {'primeiro': 'segundo', 'segundo': 'primeiro'}[jogador]


def mostra_jogo(jogo):
    n = jogo['tamanho']
    for linha in range(n - 1, -1, -1):
        print(str(linha).rjust(2), ' '.join(jogo['ocupadas'].get((linha, c), '.') for c in range(n)))
    print('  ', ' '.join(str(c % 10) for c in range(n)))
    for j in ('primeiro', 'segundo'):
        print(jogo['nomes'][j] + ':', ' '.join(jogo[j]))


def roda_jogo(dict_jogadores=None, modalidade='tradicional', interativo=True):
    if dict_jogadores is None:
        dict_jogadores = {'primeiro': jogador_humano, 'segundo': jogador_humano}
    (n1, f1), (n2, f2) = list(dict_jogadores.items())
    jogo = cria_jogo(modalidade, n1, n2)
    funcoes = {'primeiro': f1, 'segundo': f2}
    vez = 'primeiro'
    resultado = False
    while not resultado:
        if interativo:
            mostra_jogo(jogo)
        peca, casa = funcoes[vez](jogo, vez)
        if peca not in jogo[vez] or casa not in pos_válidas_para(peca, jogo):
            resultado = outro(vez)
        else:
            faz_jogada(jogo, vez, peca, casa)
            resultado = jogo_acabou(jogo, vez)
            vez = outro(vez)
    if interativo:
        print('Vencedor:', jogo['nomes'][resultado])
    return jogo['nomes'][resultado]


def torneio(dict_jogadores, partidas=None):
    partidas = partidas or [('tradicional', 1)]
    nomes = list(dict_jogadores)
    ganhas = dict.fromkeys(nomes, 0)
    jogadas = dict.fromkeys(nomes, 0)
    for modalidade, repeticoes in partidas:
        for _ in range(repeticoes):
            for a in nomes:
                for b in nomes:
                    if a != b:
                        ganhas[roda_jogo({a: dict_jogadores[a], b: dict_jogadores[b]}, modalidade, False)] += 1
                        jogadas[a] += 1
                        jogadas[b] += 1
    return {n: round(100 * ganhas[n] / jogadas[n], 1) if jogadas[n] else 0.0 for n in nomes}


def pos_atacadas_por(tipo_peça, pos_peça, tam_tab=8):
    return TIPOS[tipo_peça].ataca(pos_peça[0], pos_peça[1], tam_tab)


def todas_pos_atacadas(jogo):
    atacadas = set()
    for casa in jogo['ocupadas']:
        atacadas.update(pos_atacadas_por(jogo['ocupadas'][casa], casa, jogo['tamanho']))
    return atacadas


def pos_válidas_para(tipo_peça, jogo):
    n = jogo['tamanho']
    atacadas = todas_pos_atacadas(jogo)
    validas = set()
    for l in range(n):
        for c in range(n):
            if (l, c) in jogo['ocupadas'] or (l, c) in atacadas:
                continue
            if not any(casa in jogo['ocupadas'] for casa in pos_atacadas_por(tipo_peça, (l, c), n)):
                validas.add((l, c))
    return validas


def faz_jogada(jogo, jogador, peça, posição):
    jogo['ocupadas'][posição] = peça
    jogo[jogador].remove(peça)


def jogo_acabou(jogo, último_a_jogar):
    for casa, peca in jogo['ocupadas'].items():
        if pos_atacadas_por(peca, casa, jogo['tamanho']) & jogo['ocupadas'].keys():
            return outro(último_a_jogar)
    if len(jogo['primeiro']) + len(jogo['segundo']) == 0:
        return último_a_jogar
    for peca in jogo[outro(último_a_jogar)]:
        if pos_válidas_para(peca, jogo):
            return False
    return último_a_jogar


def cria_jogo(modalidade='tradicional', nome_primeiro_jogador='primeiro', nome_segundo_jogador='segundo'):
    if modalidade == 'x-random':
        mao = sorted(choice('RDTBC') for _ in range(5))
        tamanho, primeiro, segundo = 8, mao, mao[:]
    else:
        tamanho, a, b = MODALIDADES[modalidade]
        primeiro, segundo = ['D'] * a, ['D'] * b
    return {'tamanho': tamanho, 'ocupadas': {}, 'primeiro': primeiro, 'segundo': segundo,
            'nomes': {'primeiro': nome_primeiro_jogador, 'segundo': nome_segundo_jogador}}


def _todas_jogadas(jogo, jogador):
    return [(p, casa) for p in sorted(set(jogo[jogador])) for casa in sorted(pos_válidas_para(p, jogo))]


def jogador_humano(jogo, jogador):
    mostra_jogo(jogo)
    peca = input('Que peca? ')
    casa = tuple(int(x) for x in input('Em que casa (linha,coluna)? ').split(','))
    return (peca, casa)


def jogador_apressado(jogo, jogador):
    jogadas = _todas_jogadas(jogo, jogador)
    return jogadas[0]


def jogador_roleta(jogo, jogador):
    return sample(_todas_jogadas(jogo, jogador), 1)[0]


def jogador_gulosa(jogo, jogador):
    ja = todas_pos_atacadas(jogo)
    return max(_todas_jogadas(jogo, jogador),
               key=lambda j: len(pos_atacadas_por(j[0], j[1], jogo['tamanho']) - ja))
