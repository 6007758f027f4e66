import { LANGUAGE_COOKIE } from '@cloud-classroom/shared/constants';
import { act, cleanup, render, screen } from '@testing-library/react';
import Cookies from 'js-cookie';
import { startTransition, Suspense, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The test setup gives the app's store both catalogues (as the back office does); these tests
// take a fresh copy of the module, which has none, as a first visit to a light page starts.
async function freshStore() {
  vi.resetModules();
  return import('./use-locale-text');
}

describe('the light pages load only the language they show', () => {
  beforeEach(() => {
    Cookies.set(LANGUAGE_COOKIE, 'zh-CN');
  });
  afterEach(() => {
    cleanup();
    Cookies.remove(LANGUAGE_COOKIE);
  });

  it('waits for the chosen language on the first render, then writes in it, the other language not fetched', async () => {
    const { getLocale, localizeMessage, useLocaleText } = await freshStore();
    function Title() {
      const { t } = useLocaleText();
      return <h1>{t('page.notFound.title')}</h1>;
    }
    // Awaited: React retries a render suspended inside act only when the act is awaited.
    await act(async () => {
      render(
        <Suspense fallback={<p>loading</p>}>
          <Title />
        </Suspense>,
      );
    });
    expect(getLocale()).toBe('zh-CN');
    expect(screen.getByRole('heading', { name: '页面不存在' })).toBeTruthy();
    // English, which a server message needs, has not come: the message stays as it came.
    expect(localizeMessage('zh-CN', 'username or password is wrong')).toBe('username or password is wrong');
  });

  it('draws a page whose first render React replays once the catalogue has come, hooks after it included', async () => {
    const { useLocaleText } = await freshStore();
    const consoleError = vi.spyOn(console, 'error');
    function Title() {
      const { t } = useLocaleText();
      // A hook after the catalogue's: the replay must mount it, as the 404 page's router hooks.
      const [mark] = useState('!');
      return <h1>{`${t('page.notFound.title')}${mark}`}</h1>;
    }
    let showTitle = () => {};
    function Switch() {
      const [shown, setShown] = useState(false);
      showTitle = () => setShown(true);
      return shown ? <Title /> : <p>before</p>;
    }
    const recovered: unknown[] = [];
    render(
      <Suspense fallback={<p>loading</p>}>
        <Switch />
      </Suspense>,
      { onRecoverableError: (error) => recovered.push(error) },
    );
    // In a transition React keeps the page and waits for the catalogue rather than unwinding,
    // then replays the suspended render: the path the first visit takes when the catalogue
    // arrives within React's yield.
    await act(async () => startTransition(showTitle));
    await vi.waitFor(() => expect(screen.getByRole('heading').textContent).toBe('页面不存在!'));
    expect(recovered).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it("switches once the other language's catalogue has come, without showing the fallback again, and remembers it", async () => {
    const { loadCatalogue, setLocale, useLocaleText } = await freshStore();
    await loadCatalogue('zh-CN');
    function Title() {
      const { t } = useLocaleText();
      return <h1>{t('page.notFound.title')}</h1>;
    }
    render(
      <Suspense fallback={<p>loading</p>}>
        <Title />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: '页面不存在' })).toBeTruthy();
    const switched = setLocale('en-US');
    // Until English is here the page stays as it was, never a placeholder.
    expect(screen.getByRole('heading', { name: '页面不存在' })).toBeTruthy();
    await act(() => switched);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(Cookies.get(LANGUAGE_COOKIE)).toBe('en-US');
    expect(document.documentElement.getAttribute('lang')).toBe('en-US');
  });

  it('keeps the last language asked for when an earlier switch finishes later', async () => {
    const { getLocale, loadCatalogue, setLocale } = await freshStore();
    await loadCatalogue('zh-CN');
    const toEnglish = setLocale('en-US', false);
    const backToChinese = setLocale('zh-CN', false);
    await Promise.all([toEnglish, backToChinese]);
    expect(getLocale()).toBe('zh-CN');
  });

  it('shows a server message (English) in the page language once English has come, and as it came before', async () => {
    const { loadCatalogue, localizeMessage, textOf } = await freshStore();
    expect(textOf('error.timeout')).toBe('error.timeout');
    await loadCatalogue('zh-CN');
    expect(textOf('error.timeout')).toBe('网络请求超时');
    expect(localizeMessage('zh-CN', 'username or password is wrong')).toBe('username or password is wrong');
    await loadCatalogue('en-US');
    expect(localizeMessage('zh-CN', 'username or password is wrong')).toBe('用户名或密码错误');
    expect(localizeMessage('zh-CN', 'a message of no catalogue')).toBe('a message of no catalogue');
  });
});
