import { act, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LoadMoreOptions, useLoadMoreOnScroll } from './paged-lists';

/** happy-dom lays nothing out: give every element the box a browser would measure. */
function layOut(box: { clientHeight: number; scrollHeight: number; scrollTop?: number }): void {
  for (const [key, value] of Object.entries(box)) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value, set: () => {} });
  }
}

afterEach(() => {
  for (const key of ['clientHeight', 'scrollHeight', 'scrollTop']) Reflect.deleteProperty(HTMLElement.prototype, key);
});

function Scroller(props: LoadMoreOptions) {
  const { ref, onScroll } = useLoadMoreOnScroll<HTMLDivElement>(props);
  return <div data-testid="box" ref={ref} onScroll={onScroll} />;
}

describe('useLoadMoreOnScroll', () => {
  it('asks for the next page near the bottom, once per burst of scroll events until the fetch starts', () => {
    layOut({ clientHeight: 500, scrollHeight: 2000, scrollTop: 0 });
    const onLoadMore = vi.fn();
    const view = render(<Scroller hasMore loading={false} onLoadMore={onLoadMore} />);
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).not.toHaveBeenCalled();

    layOut({ clientHeight: 500, scrollHeight: 2000, scrollTop: 1450 });
    fireEvent.scroll(view.getByTestId('box'));
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).toHaveBeenCalledTimes(1);

    // the fetch started and ended: the next scroll near the bottom asks again
    view.rerender(<Scroller hasMore loading onLoadMore={onLoadMore} />);
    view.rerender(<Scroller hasMore loading={false} onLoadMore={onLoadMore} />);
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).toHaveBeenCalledTimes(2);
  });

  it('with edge top, asks near the top within its threshold and not near the bottom', () => {
    const onLoadMore = vi.fn();
    layOut({ clientHeight: 500, scrollHeight: 2000, scrollTop: 1500 });
    const view = render(<Scroller hasMore loading={false} onLoadMore={onLoadMore} edge="top" thresholdPx={40} />);
    fireEvent.scroll(view.getByTestId('box'));
    layOut({ clientHeight: 500, scrollHeight: 2000, scrollTop: 60 });
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).not.toHaveBeenCalled();
    layOut({ clientHeight: 500, scrollHeight: 2000, scrollTop: 30 });
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });

  it('asks right away while the content is too short to scroll, whichever its edge, and never when there is no more', () => {
    layOut({ clientHeight: 800, scrollHeight: 300 });
    for (const edge of ['bottom', 'top'] as const) {
      const onLoadMore = vi.fn();
      const view = render(<Scroller hasMore loading={false} onLoadMore={onLoadMore} edge={edge} />);
      expect(onLoadMore).toHaveBeenCalledTimes(1);
      view.unmount();
    }
    const none = vi.fn();
    render(<Scroller hasMore={false} loading={false} onLoadMore={none} />);
    expect(none).not.toHaveBeenCalled();
  });

  it('does not ask again by itself after a failed page (that would loop), but a scroll still asks', () => {
    layOut({ clientHeight: 800, scrollHeight: 300 });
    const onLoadMore = vi.fn();
    const view = render(<Scroller hasMore loading={false} onLoadMore={onLoadMore} />);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    view.rerender(<Scroller hasMore loading onLoadMore={onLoadMore} />);
    view.rerender(<Scroller hasMore loading={false} failed onLoadMore={onLoadMore} />);
    act(() => view.rerender(<Scroller hasMore loading={false} failed onLoadMore={onLoadMore} />));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    fireEvent.scroll(view.getByTestId('box'));
    expect(onLoadMore).toHaveBeenCalledTimes(2);
  });
});
