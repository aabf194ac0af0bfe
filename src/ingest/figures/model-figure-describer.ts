import type { ChatModel } from '../../models/chat/chat-model.ts';
import type { FigureDescriber } from './figure-describer.ts';

/** Tokens of one description: a paragraph, not an essay (the stored text is cut at 2,000 characters anyway). */
export const FIGURE_DESCRIPTION_TOKENS = 400;

const INSTRUCTIONS =
  'You describe one figure of a document so that it can be found by search and cited. The image is the page the ' +
  'figure is printed on; describe only the figure the caption names. Say what kind of figure it is (chart, diagram, ' +
  'photograph, …), its axes, labels and legend, the values you can read, and the trends or relations it shows. Use ' +
  'only what the image and the caption show: do not guess a value you cannot read, and add nothing from outside the ' +
  'figure. Plain text, at most 150 words.';

/**
 * A vision model as the figure describer: the caption as text and the page as an image part (a PNG data URL), which
 * `@langchain/openai` sends as an `image_url` part and `@langchain/ollama` as the message's `images`.
 */
export function modelFigureDescriber(vision: ChatModel): FigureDescriber {
  return {
    id: vision.id,
    async describe(figure, signal) {
      // LangChain loads when a figure is described, not with every ingest.
      const { HumanMessage, SystemMessage } = await import('@langchain/core/messages');
      const answer = await vision.model.invoke(
        [
          new SystemMessage(INSTRUCTIONS),
          new HumanMessage({
            content: [
              {
                type: 'text',
                text: `Document: ${figure.docTitle}\nPage ${figure.page}\nCaption: ${figure.caption}\n\nDescribe ${figure.label}.`,
              },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${figure.png.toString('base64')}` } },
            ],
          }),
        ],
        { signal },
      );
      return answer.text;
    },
  };
}
